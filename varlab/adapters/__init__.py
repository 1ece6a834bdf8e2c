"""scikit-learn adapters (extra ``ml``): transformers that wrap varlab's feature maps.

Import the submodules directly (``from varlab.adapters.rff import RFFTransformer``); scikit-learn
is imported only there.
"""
