from .rff import RFF
