"""Minimal stand-in for tqdm: a progress bar that does nothing."""
class tqdm:
    def __init__(self, iterable=None, *a, **k):
        self.iterable = iterable
    def __iter__(self):
        return iter(self.iterable if self.iterable is not None else [])
    def update(self, n=1):
        pass
    def close(self):
        pass
    def set_description(self, *a, **k):
        pass
    def __enter__(self):
        return self
    def __exit__(self, *a):
        return False
