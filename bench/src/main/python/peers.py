"""PyTorch and NumPy running the same workloads as Panamax's tensor suite, in one process.

The benchmark JVM starts this script with the venv's python and talks to it one line at a time,
so the peers' figures are measured interleaved with Panamax's, on the same machine in the same run.

Each command on stdin gets one JSON line on stdout:
  spiral STEPS   -> {"name": "torch.spiral.step.ms", "unit": "ms", "value": ms per training step} and
                    torch.spiral.step.cpu.ms, the same in this thread's CPU time (not lost to preemption)
  big STEPS      -> torch.big.step.ms and torch.big.step.cpu.ms
  add16 N        -> {"name": "numpy.op.add16.ns", ...} then {"name": "torch.op.add16.ns", ...} on one line
                    as {"results": [...]}
  startup        -> {"name": "torch.startup.firstOp.ms", ...}: import torch + the first op, measured
                    when the script started (the interpreter's own start excluded)
  quit
Every reply is {"results": [{"name", "unit", "value"}, ...]} or {"error": "..."}.
The first line written is {"ready": true, "torch": VERSION, "numpy": VERSION, "threads": N}.

The models are the tensor suite's: the spiral step trains 2->256->256->3 (ReLU) on batches of 256
from a 3-class spiral with Adam; the big step trains 784->1024->1024->10 on a batch of 1024. Both are
forward, cross-entropy from logits, backward and Adam's update, in eager mode on THREADS threads.
"""
import json
import math
import os
import sys
import time

_t0 = time.perf_counter()
import torch  # noqa: E402
import numpy as np  # noqa: E402

_first = torch.ones(16) + torch.ones(16)
_first.sum().item()
STARTUP_MS = (time.perf_counter() - _t0) * 1e3

THREADS = int(os.environ.get("PANAMAX_THREADS", "1"))
torch.set_num_threads(THREADS)
try:
    torch.set_num_interop_threads(1)
except RuntimeError:
    pass  # already set (it can be set only once, before any inter-op work)
torch.manual_seed(0)


def spiral(classes=3, per_class=1000, noise=0.2, seed=0):
    """The tensor suite's spiral: class k's points lie on an arm r*(sin t, cos t), t in [4k, 4k+4]."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for k in range(classes):
        r = np.linspace(0.0, 1.0, per_class)
        t = np.linspace(4.0 * k, 4.0 * (k + 1), per_class) + rng.standard_normal(per_class) * noise
        xs.append(np.stack([r * np.sin(t), r * np.cos(t)], axis=1))
        ys.append(np.full(per_class, k))
    x = np.concatenate(xs).astype(np.float32)
    y = np.concatenate(ys).astype(np.int64)
    order = rng.permutation(len(y))
    return torch.from_numpy(x[order]), torch.from_numpy(y[order])


class Trainer:
    """One model, its Adam optimizer and a cycle of fixed batches."""

    def __init__(self, sizes, batches):
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
            if i < len(sizes) - 2:
                layers.append(torch.nn.ReLU())
        self.model = torch.nn.Sequential(*layers)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.batches = batches
        self.next = 0
        self.run(3)  # warm-up: allocator, Adam's state, first-call paths

    def step(self):
        xb, yb = self.batches[self.next]
        self.next = (self.next + 1) % len(self.batches)
        self.opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(self.model(xb), yb)
        loss.backward()
        self.opt.step()
        return loss

    def run(self, steps):
        loss = None
        for _ in range(steps):
            loss = self.step()
        return loss.item()  # the result is read, as Panamax's side reads it

    def ms_per_step(self, steps):
        """Wall time and this thread's CPU time per step, in ms (one intra-op thread: the step runs here)."""
        t, c = time.perf_counter_ns(), time.thread_time_ns()
        self.run(steps)
        return (time.perf_counter_ns() - t) / steps / 1e6, (time.thread_time_ns() - c) / steps / 1e6


_trainers = {}


def trainer(kind):
    if kind not in _trainers:
        if kind == "spiral":
            x, y = spiral()
            batches = [(x[i:i + 256], y[i:i + 256]) for i in range(0, len(y) - 255, 256)]
            _trainers[kind] = Trainer([2, 256, 256, 3], batches)
        else:
            g = torch.Generator().manual_seed(1)
            x = torch.randn(1024, 784, generator=g)
            y = torch.randint(0, 10, (1024,), generator=g)
            _trainers[kind] = Trainer([784, 1024, 1024, 10], [(x, y)])
    return _trainers[kind]


def add16_ns(make, n):
    a, b = make(), make()
    for _ in range(min(n, 10000)):
        c = a + b  # noqa: F841  warm-up
    t = time.perf_counter_ns()
    for _ in range(n):
        c = a + b  # noqa: F841  a new result each time
    return (time.perf_counter_ns() - t) / n


def handle(words):
    cmd = words[0]
    if cmd in ("spiral", "big"):
        steps = int(words[1])
        wall, cpu = trainer(cmd).ms_per_step(steps)
        return [{"name": "torch.%s.step.ms" % cmd, "unit": "ms", "value": wall},
                {"name": "torch.%s.step.cpu.ms" % cmd, "unit": "ms", "value": cpu}]
    if cmd == "add16":
        n = int(words[1])
        return [
            {"name": "numpy.op.add16.ns", "unit": "ns",
             "value": add16_ns(lambda: np.random.default_rng(2).random(16, dtype=np.float32), n)},
            {"name": "torch.op.add16.ns", "unit": "ns", "value": add16_ns(lambda: torch.rand(16), n)},
        ]
    if cmd == "startup":
        return [{"name": "torch.startup.firstOp.ms", "unit": "ms", "value": STARTUP_MS}]
    raise ValueError("unknown command %r; expected spiral STEPS, big STEPS, add16 N, startup or quit" % cmd)


def main():
    out = sys.stdout
    out.write(json.dumps({"ready": True, "torch": torch.__version__, "numpy": np.__version__,
                          "threads": torch.get_num_threads()}) + "\n")
    out.flush()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        try:
            reply = {"results": handle(words)}
        except Exception as e:  # the JVM side reports it with the command
            reply = {"error": "%s: %s" % (type(e).__name__, e)}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
