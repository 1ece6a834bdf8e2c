"""Figures of paper 003 (filled below)."""
