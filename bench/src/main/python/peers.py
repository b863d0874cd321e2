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
  gpt STEPS      -> torch.gpt.step.ms: the transformer demo's training step (batch 32, see Gpt below)
  gptgen TOKENS  -> torch.gpt.generate.tokensPerS: greedy generation at batch 1 after a 96-token
                    prompt, the whole window run again for every token (no key/value cache:
                    torch.nn.MultiheadAttention keeps none, and none is added here)
  cnn STEPS      -> torch.cnn.step.ms: the CNN demo's training step (batch 32, see Cnn below)
The device commands run on the peer device, PEER_DEVICE: "cuda" when torch.cuda.is_available(),
else "cpu" (PANAMAX_PEER_DEVICE=cpu|cuda overrides it); their figures carry the device in the name:
  dspiral STEPS      -> torch.DEV.spiral.step.ms (the spiral step on the peer device, its loss read
                        every step as Panamax's device figures read theirs)
  dbig STEPS         -> torch.DEV.big.step.ms
  dadd N REPS LABEL  -> torch.DEV.addLABEL.GBps: REPS adds of two N-float tensors into a new result
                        each, as bandwidth (3 * 4 * N bytes moved per add)
  dmatmul N REPS     -> torch.DEV.matmulN.TFLOPS: REPS products of N x N f32 (2 N^3 flops each;
                        cuBLAS without TF32 on CUDA)
  dgpt STEPS         -> torch.DEV.gpt.step.ms: the transformer demo's training step on the peer device
  dgptgen TOKENS     -> torch.DEV.gpt.generate.tokensPerS: its greedy generation there (no cache)
  dcnn STEPS         -> torch.DEV.cnn.step.ms: the CNN demo's training step there
On CUDA every timing starts and ends with torch.cuda.synchronize(), so it covers the work and
nothing queued before it.
  quit
Every reply is {"results": [{"name", "unit", "value"}, ...]} or {"error": "..."}.
The first line written is {"ready": true, "torch": VERSION, "numpy": VERSION, "threads": N,
"device": "cuda" or "cpu", "device_name": the GPU's or "cpu"}.

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

PEER_DEVICE = os.environ.get("PANAMAX_PEER_DEVICE") or ("cuda" if torch.cuda.is_available() else "cpu")
if PEER_DEVICE not in ("cpu", "cuda"):
    raise SystemExit("peers.py: PANAMAX_PEER_DEVICE=%r; expected cpu or cuda" % PEER_DEVICE)
if PEER_DEVICE == "cuda":
    if not torch.cuda.is_available():
        raise SystemExit("peers.py: PANAMAX_PEER_DEVICE=cuda but torch.cuda.is_available() is False")
    # the targets compare with cuBLAS in full f32: no TF32 in products or convolutions
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
PEER_DEVICE_NAME = torch.cuda.get_device_name(0) if PEER_DEVICE == "cuda" else "cpu"
sys.stderr.write("peers.py: device figures on %s (%s); torch.cuda.is_available() = %s\n"
                 % (PEER_DEVICE, PEER_DEVICE_NAME, torch.cuda.is_available()))


def device_sync(device):
    """Waits for the device's queued work (CUDA runs asynchronously; the CPU has nothing queued)."""
    if device == "cuda":
        torch.cuda.synchronize()


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

    def __init__(self, sizes, batches, device="cpu"):
        self.device = device
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
            if i < len(sizes) - 2:
                layers.append(torch.nn.ReLU())
        self.model = torch.nn.Sequential(*layers).to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.batches = [(xb.to(device), yb.to(device)) for xb, yb in batches]
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

    def run(self, steps, read_each=False):
        loss = None
        for _ in range(steps):
            loss = self.step()
            if read_each:
                loss.item()  # a host round trip per step, as Panamax's device figures have
        return loss.item()  # the result is read, as Panamax's side reads it

    def ms_per_step(self, steps, read_each=False):
        """Wall time and this thread's CPU time per step, in ms (one intra-op thread: the step runs here)."""
        device_sync(self.device)
        t, c = time.perf_counter_ns(), time.thread_time_ns()
        self.run(steps, read_each)  # reads the loss: waits for the device
        device_sync(self.device)
        return (time.perf_counter_ns() - t) / steps / 1e6, (time.thread_time_ns() - c) / steps / 1e6


_trainers = {}


def trainer(kind, device="cpu"):
    key = (kind, device)
    if key not in _trainers:
        if kind == "spiral":
            x, y = spiral()
            batches = [(x[i:i + 256], y[i:i + 256]) for i in range(0, len(y) - 255, 256)]
            _trainers[key] = Trainer([2, 256, 256, 3], batches, device)
        else:
            g = torch.Generator().manual_seed(1)
            x = torch.randn(1024, 784, generator=g)
            y = torch.randint(0, 10, (1024,), generator=g)
            _trainers[key] = Trainer([784, 1024, 1024, 10], [(x, y)], device)
    return _trainers[key]


_operands = {}


def operands(kind, n, device):
    """Two seeded random f32 operands (n floats, or n x n for a product) on the device, made once."""
    key = (kind, n, device)
    if key not in _operands:
        _operands.clear()  # one pair at a time: 64M floats are 256 MB each
        g = torch.Generator().manual_seed(2)
        shape = (n, n) if kind == "matmul" else (n,)
        _operands[key] = (torch.rand(shape, generator=g).to(device), torch.rand(shape, generator=g).to(device))
    return _operands[key]


def timed_seconds(device, reps, op):
    """Seconds for reps calls of op, after one warm-up call, the device idle before and after."""
    op()
    device_sync(device)
    t = time.perf_counter_ns()
    for _ in range(reps):
        op()
    device_sync(device)
    return (time.perf_counter_ns() - t) / 1e9


def add_gbps(n, reps, device):
    a, b = operands("add", n, device)
    seconds = timed_seconds(device, reps, lambda: a + b)  # a new result each time, as Panamax's side
    return 3.0 * 4 * n * reps / seconds / 1e9


def matmul_tflops(n, reps, device):
    a, b = operands("matmul", n, device)
    seconds = timed_seconds(device, reps, lambda: a @ b)
    return 2.0 * n * n * n * reps / seconds / 1e12


def add16_ns(make, n):
    a, b = make(), make()
    for _ in range(min(n, 10000)):
        c = a + b  # noqa: F841  warm-up
    t = time.perf_counter_ns()
    for _ in range(n):
        c = a + b  # noqa: F841  a new result each time
    return (time.perf_counter_ns() - t) / n


class Block(torch.nn.Module):
    """Panamax's TransformerBlock: x + attn(ln1(x)), then x + mlp(ln2(x)); causal attention, GELU (tanh), MLP 4x."""

    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = torch.nn.LayerNorm(dim)
        self.attn = torch.nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln2 = torch.nn.LayerNorm(dim)
        self.fc = torch.nn.Linear(dim, 4 * dim)
        self.proj = torch.nn.Linear(4 * dim, dim)

    def forward(self, x, mask):
        h = self.ln1(x)
        a, _ = self.attn(h, h, h, attn_mask=mask, need_weights=False, is_causal=True)
        x = x + a
        return x + self.proj(torch.nn.functional.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class Gpt(torch.nn.Module):
    """Panamax's Gpt: token and position embeddings (normal, std 0.02), pre-LN blocks, final LayerNorm, linear head without bias."""

    def __init__(self, vocab=62, context=128, dim=128, heads=4, layers=2):
        super().__init__()
        self.vocab = vocab
        self.context = context
        self.tokens = torch.nn.Embedding(vocab, dim)
        self.positions = torch.nn.Embedding(context, dim)
        torch.nn.init.normal_(self.tokens.weight, std=0.02)
        torch.nn.init.normal_(self.positions.weight, std=0.02)
        self.blocks = torch.nn.ModuleList([Block(dim, heads) for _ in range(layers)])
        self.ln_f = torch.nn.LayerNorm(dim)
        self.head = torch.nn.Linear(dim, vocab, bias=False)
        masks = [torch.nn.Transformer.generate_square_subsequent_mask(t) for t in range(context + 1)]
        self.masks = masks  # masks[t]: (t, t), -inf above the diagonal

    def forward(self, ids):
        t = ids.shape[1]
        x = self.tokens(ids) + self.positions.weight[:t]
        mask = self.masks[t]
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln_f(x))


class GptWorkload:
    """The transformer demo's model and AdamW (lr 3e-3, weight decay 0.01, clipping to norm 1) on one fixed batch."""

    def __init__(self, batch=32, device="cpu"):
        g = torch.Generator().manual_seed(3)
        self.device = device
        self.model = Gpt().to(device)
        self.model.masks = [m.to(device) for m in self.model.masks]
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=3e-3, weight_decay=0.01)
        v, t = self.model.vocab, self.model.context
        self.inputs = torch.randint(0, v, (batch, t), generator=g).to(device)
        self.targets = torch.randint(0, v, (batch, t), generator=g).to(device)
        self.prompt = torch.randint(0, v, (96,), generator=g).tolist()
        self.step()
        self.generate(2)

    def step(self):
        self.model.train()
        self.opt.zero_grad(set_to_none=True)
        logits = self.model(self.inputs)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, self.model.vocab), self.targets.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        return loss.item()

    def generate(self, count):
        """Greedy, batch 1: every token runs the model over the whole window again (no key/value cache)."""
        self.model.eval()
        tokens = list(self.prompt)
        with torch.inference_mode():
            for _ in range(count):
                window = torch.tensor([tokens[-self.model.context:]], device=self.device)
                tokens.append(int(self.model(window)[0, -1].argmax()))
        return tokens[-1]


class CnnWorkload:
    """The CNN demo's model: conv3x3(8)-bn-relu-pool, conv3x3(16)-bn-relu-pool, linear(256->4); Adam lr 0.01, batch 32 of 16x16 images."""

    def __init__(self, batch=32, device="cpu"):
        g = torch.Generator().manual_seed(4)
        nn = torch.nn
        self.model = nn.Sequential(
            nn.Conv2d(1, 8, 3, 1, 1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, 1, 1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(16 * 4 * 4, 4)).to(device)
        self.model.train()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=0.01)
        self.x = torch.randn(batch, 1, 16, 16, generator=g).to(device)
        self.y = torch.randint(0, 4, (batch,), generator=g).to(device)
        self.step()

    def step(self):
        self.opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(self.model(self.x), self.y)
        loss.backward()
        self.opt.step()
        return loss.item()


_models = {}


def model(kind, device="cpu"):
    if (kind, device) not in _models:
        _models[(kind, device)] = GptWorkload(device=device) if kind == "gpt" else CnnWorkload(device=device)
    return _models[(kind, device)]


def ms_per(steps, step, device="cpu"):
    device_sync(device)
    t = time.perf_counter_ns()
    for _ in range(steps):
        step()
    device_sync(device)
    return (time.perf_counter_ns() - t) / steps / 1e6


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
    if cmd in ("dspiral", "dbig"):
        kind = cmd[1:]
        wall, _ = trainer(kind, PEER_DEVICE).ms_per_step(int(words[1]), read_each=True)
        return [{"name": "torch.%s.%s.step.ms" % (PEER_DEVICE, kind), "unit": "ms", "value": wall}]
    if cmd == "dadd":
        n, reps, label = int(words[1]), int(words[2]), words[3]
        return [{"name": "torch.%s.add%s.GBps" % (PEER_DEVICE, label), "unit": "GB/s",
                 "value": add_gbps(n, reps, PEER_DEVICE)}]
    if cmd == "dmatmul":
        n, reps = int(words[1]), int(words[2])
        return [{"name": "torch.%s.matmul%d.TFLOPS" % (PEER_DEVICE, n), "unit": "TFLOPS",
                 "value": matmul_tflops(n, reps, PEER_DEVICE)}]
    if cmd in ("gpt", "cnn"):
        return [{"name": "torch.%s.step.ms" % cmd, "unit": "ms", "value": ms_per(int(words[1]), model(cmd).step)}]
    if cmd == "gptgen":
        n = int(words[1])
        t = time.perf_counter_ns()
        model("gpt").generate(n)
        return [{"name": "torch.gpt.generate.tokensPerS", "unit": "tokensPerS", "value": n / ((time.perf_counter_ns() - t) / 1e9)}]
    if cmd in ("dgpt", "dcnn"):
        kind = cmd[1:]
        return [{"name": "torch.%s.%s.step.ms" % (PEER_DEVICE, kind), "unit": "ms",
                 "value": ms_per(int(words[1]), model(kind, PEER_DEVICE).step, PEER_DEVICE)}]
    if cmd == "dgptgen":
        n = int(words[1])
        gpt = model("gpt", PEER_DEVICE)
        device_sync(PEER_DEVICE)
        t = time.perf_counter_ns()
        gpt.generate(n)
        device_sync(PEER_DEVICE)
        return [{"name": "torch.%s.gpt.generate.tokensPerS" % PEER_DEVICE, "unit": "tokensPerS",
                 "value": n / ((time.perf_counter_ns() - t) / 1e9)}]
    if cmd == "startup":
        return [{"name": "torch.startup.firstOp.ms", "unit": "ms", "value": STARTUP_MS}]
    raise ValueError("unknown command %r; expected spiral STEPS, big STEPS, add16 N, gpt STEPS, gptgen TOKENS, cnn STEPS, dspiral STEPS, dbig STEPS, dadd N REPS LABEL, dmatmul N REPS, dgpt STEPS, dgptgen TOKENS, dcnn STEPS, startup or quit" % cmd)


def main():
    out = sys.stdout
    out.write(json.dumps({"ready": True, "torch": torch.__version__, "numpy": np.__version__,
                          "threads": torch.get_num_threads(), "device": PEER_DEVICE,
                          "device_name": PEER_DEVICE_NAME}) + "\n")
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
