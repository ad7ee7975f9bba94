"""A reproducer bundle (core/compare/repro.h) read for triage: its CASE, where its files are,
its inputs and expected outputs, and its comparison with integers compared exactly."""

import os
import types

import numpy as np


class Bundle:
    def __init__(self, directory):
        script = os.path.join(directory, "repro.py")
        with open(script) as f:
            source = f.read().replace('if __name__ == "__main__":', "if False:")
        module = types.ModuleType("repro")
        module.__file__ = script
        exec(compile(source, script, "exec"), module.__dict__)
        self.case = module.CASE
        self.root = os.path.join(directory, self.case["root"])
        self.inputs = {n: np.load(os.path.join(self.root, f"inputs/input_{i}.npy"))
                       for i, n in enumerate(self.case["inputs"])}
        # Graph a's outputs (model_a); model_b's, which may be ordered otherwise, are graphs[1].
        self.tolerances = self.case["graphs"][0]["tolerances"]
        self.expected = [np.load(os.path.join(self.root, f))
                         for f in self.case["graphs"][0]["expected"]]
        self._within_tolerance = module.differences

    def models(self):
        return sorted({r["model"] for r in self.case["runs"]})

    def differences(self, actual, i):
        """Why output i differs from the expected one, or None; integers exactly."""
        actual, expected = np.asarray(actual), self.expected[i]
        if (actual.dtype == expected.dtype and actual.shape == expected.shape
                and actual.dtype.kind in "iu"):
            bad = np.flatnonzero(actual.ravel() != expected.ravel())
            if bad.size == 0:
                return None
            shown = ", ".join(f"[{k}] {actual.ravel()[k]} (expected {expected.ravel()[k]})"
                              for k in bad[:4])
            return f"{bad.size} of {expected.size} elements differ (exact int): {shown}"
        return self._within_tolerance(actual, expected, self.tolerances[i])
