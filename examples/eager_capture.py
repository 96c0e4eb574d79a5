"""An eager training loop written for torch, run by symgrad with and without capture.

    python examples/eager_capture.py

No decorator: the loop is plain torch code (``import symgrad as torch``). With capture on
(the default), symgrad records the repeated step, compiles it once its structure has repeated,
and runs each later step's forward and backward as one C call; the optimizer's update stays
eager. The script trains the same model twice, capture off then on, and prints the losses,
the time per step over the last steps, and what the capture did (``SYMGRAD_DEBUG=1`` logs it
as it happens).
"""

import time

import numpy as np

import symgrad
import symgrad as torch
from symgrad.frontend.core import lazy


def train(capture: bool, steps: int = 600) -> tuple[list, float]:
    symgrad.set_capture(capture)
    lazy.reset()
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    X = torch.tensor(rng.standard_normal((256, 20)).astype(np.float32))
    Y = torch.tensor(rng.integers(0, 5, 256))
    model = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.Tanh(),
                                torch.nn.Linear(64, 5))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for step in range(steps):
        if step == steps - 200:
            start = time.perf_counter()
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(X), Y)
        loss.backward()
        opt.step()
        if step % 100 == 0:
            losses.append(round(loss.item(), 5))
    return losses, (time.perf_counter() - start) / 200


def main() -> None:
    before = dict(lazy.STATS)
    eager_losses, eager_time = train(False)
    captured_losses, captured_time = train(True)
    done = {k: lazy.STATS[k] - before[k] for k in before}
    print("losses, eager:   ", eager_losses)
    print("losses, captured:", captured_losses)
    print(f"time per step: eager {eager_time * 1e6:.0f} us, captured {captured_time * 1e6:.0f} "
          f"us ({eager_time / captured_time:.1f}x)")
    print(f"capture: {done['compiled']} step compiled, {done['replayed']} steps replayed, "
          f"{done['fallbacks']} fallbacks")
    assert np.allclose(eager_losses, captured_losses, rtol=1e-4)


if __name__ == "__main__":
    main()
