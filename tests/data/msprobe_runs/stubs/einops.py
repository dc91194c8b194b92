"""Minimal stand-in for einops (msprobe imports it only for unrelated features)."""
def rearrange(*a, **k):
    raise NotImplementedError("einops stub")
def repeat(*a, **k):
    raise NotImplementedError("einops stub")
def reduce(*a, **k):
    raise NotImplementedError("einops stub")
