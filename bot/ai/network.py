"""The evaluator's neural net: encoded positions in, five probabilities out.

One hidden layer of tanh units and five sigmoid outputs, as GNU Backgammon's nets have, from
the side to move, before its roll:

- ``WIN``: it wins the game;
- ``WIN_MARS``: it wins a mars or better (the opponent has borne off none);
- ``WIN_KOKS``: it wins a koks;
- ``LOSE_MARS``, ``LOSE_KOKS``: the same for the opponent.

Weights are numpy arrays saved in one ``.npz`` file with what they were trained on
(:meth:`Network.save`); a file is about 60 KB.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

from .features import COUNTED, FEATURES

WIN, WIN_MARS, WIN_KOKS, LOSE_MARS, LOSE_KOKS = range(5)
OUTPUTS: Final = 5

Array = NDArray[np.float32]


def flip(outputs: Array) -> Array:
    """The same probabilities from the other side: its win is our loss, its mars ours."""
    flipped = np.empty_like(outputs)
    flipped[..., WIN] = 1.0 - outputs[..., WIN]
    flipped[..., WIN_MARS] = outputs[..., LOSE_MARS]
    flipped[..., WIN_KOKS] = outputs[..., LOSE_KOKS]
    flipped[..., LOSE_MARS] = outputs[..., WIN_MARS]
    flipped[..., LOSE_KOKS] = outputs[..., WIN_KOKS]
    return flipped


@dataclass
class Network:
    """A one-hidden-layer net with an Adam optimiser for training.

    ``info`` carries what the weights were trained on (family, games, seed) into the file.
    """

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    info: dict[str, str] = field(default_factory=dict)
    _adam: list[tuple[Array, Array]] | None = field(default=None, repr=False)
    _steps: int = field(default=0, repr=False)

    @classmethod
    def fresh(cls, hidden: int, seed: int) -> Network:
        """Small random weights (seeded), ready to train."""
        rng = np.random.default_rng(seed)
        scale1 = 1.0 / np.sqrt(FEATURES)
        scale2 = 1.0 / np.sqrt(hidden)
        return cls(
            rng.normal(0.0, scale1, (FEATURES, hidden)).astype(np.float32),
            np.zeros(hidden, dtype=np.float32),
            rng.normal(0.0, scale2, (hidden, OUTPUTS)).astype(np.float32),
            np.zeros(OUTPUTS, dtype=np.float32),
        )

    def grown(self, hidden: int, seed: int) -> Network:
        """A net that computes nearly what this one does, with ``hidden`` units (at least as
        many) and today's :data:`~bot.ai.features.FEATURES` inputs: the columns of
        :mod:`bot.ai.counts` added where this net predates them, at weight 0; the new units
        seeded small, their outputs' weights a hundredth of a fresh net's, so that training
        moves them at once while what this net knew stays."""
        inputs = self.w1.shape[0]
        if hidden < self.hidden or inputs not in (FEATURES, FEATURES - COUNTED):
            raise ValueError(f"cannot grow {inputs} inputs x {self.hidden} units to {hidden}")
        fresh = Network.fresh(hidden, seed)
        w1 = fresh.w1.copy()
        w1[:, : self.hidden] = 0.0
        before = FEATURES - 2 - (FEATURES - inputs)  # the remainder's columns come last
        w1[:before, : self.hidden] = self.w1[:before]
        w1[-2:, : self.hidden] = self.w1[-2:]
        b1 = np.zeros(hidden, dtype=np.float32)
        b1[: self.hidden] = self.b1
        w2 = fresh.w2 * np.float32(0.01)
        w2[: self.hidden] = self.w2
        return Network(w1, b1, w2, self.b2.copy(), dict(self.info))

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path) as data:
            pairs = zip(data["info_keys"], data["info_values"], strict=True)
            info = {str(k): str(v) for k, v in pairs}
            return cls(
                data["w1"].astype(np.float32),
                data["b1"].astype(np.float32),
                data["w2"].astype(np.float32),
                data["b2"].astype(np.float32),
                info,
            )

    def save(self, path: Path) -> None:
        keys = np.array(list(self.info), dtype=str)
        values = np.array([self.info[k] for k in self.info], dtype=str)
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                w1=self.w1,
                b1=self.b1,
                w2=self.w2,
                b2=self.b2,
                info_keys=keys,
                info_values=values,
            )

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    def evaluate(self, inputs: Array) -> Array:
        """``(n, FEATURES)`` encoded positions -> ``(n, 5)`` probabilities."""
        hidden = np.tanh(inputs @ self.w1 + self.b1)
        return _sigmoid(hidden @ self.w2 + self.b2)

    def train(self, inputs: Array, targets: Array, rate: float) -> float:
        """One Adam step towards ``targets`` (probabilities, ``(n, 5)``) on cross-entropy;
        returns the mean absolute error before the step."""
        hidden = np.tanh(inputs @ self.w1 + self.b1)
        outputs = _sigmoid(hidden @ self.w2 + self.b2)
        error = (outputs - targets) / inputs.shape[0]  # d(cross-entropy)/d(logits)
        grad_w2 = hidden.T @ error
        grad_b2 = error.sum(axis=0)
        back = (error @ self.w2.T) * (1.0 - hidden * hidden)
        grad_w1 = inputs.T @ back
        grad_b1 = back.sum(axis=0)
        self._adam_step(rate, [grad_w1, grad_b1, grad_w2, grad_b2])
        return float(np.abs(outputs - targets).mean())

    def _adam_step(self, rate: float, grads: list[Array]) -> None:
        params = [self.w1, self.b1, self.w2, self.b2]
        if self._adam is None:
            self._adam = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
        self._steps += 1
        beta1, beta2 = 0.9, 0.999
        correction1 = 1.0 - beta1**self._steps
        correction2 = 1.0 - beta2**self._steps
        for param, grad, (m, v) in zip(params, grads, self._adam, strict=True):
            m *= beta1
            m += (1.0 - beta1) * grad
            v *= beta2
            v += (1.0 - beta2) * grad * grad
            param -= rate * (m / correction1) / (np.sqrt(v / correction2) + 1e-8)


def _sigmoid(x: Array) -> Array:
    out: Array = (1.0 / (1.0 + np.exp(-x))).astype(np.float32, copy=False)
    return out
