"""Prints every tensor of a safetensors file as the safetensors package reads it, one line each:
    tensor <name> <numpy dtype> <shape, comma-separated> <values in C order, space-separated>
then one line per metadata entry: meta <key>=<value>. SafeTensorsTest runs it on files Panamax
wrote. Needs numpy and safetensors."""
import sys

from safetensors import safe_open
from safetensors.numpy import load_file

for name, a in load_file(sys.argv[1]).items():
    values = a.reshape(-1).tolist()
    print("tensor", name, a.dtype, ",".join(str(d) for d in a.shape), " ".join(repr(v) for v in values))
with safe_open(sys.argv[1], framework="numpy") as f:
    for key, value in (f.metadata() or {}).items():
        print("meta " + key + "=" + value)
