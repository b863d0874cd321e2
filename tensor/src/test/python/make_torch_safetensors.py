"""Writes src/test/resources/dev/panamax/tensor/io/torch-mlp.safetensors, the fixture of SafeTensorsTest.

The file is what PyTorch users write: safetensors.torch.save_file(model.state_dict(), path) for
nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 3)) seeded with torch.manual_seed(0). Its
metadata holds an input and PyTorch's output for it (JSON lists), so the test can check that the
model Panamax loads computes what PyTorch computed. Run with torch and safetensors installed:
    python make_torch_safetensors.py ../resources/dev/panamax/tensor/io/torch-mlp.safetensors
"""
import json
import sys

import torch
from safetensors.torch import save_file

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.ReLU(), torch.nn.Linear(4, 3))
x = torch.tensor([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]])
with torch.no_grad():
    y = model(x)
metadata = {"input": json.dumps(x.tolist()), "output": json.dumps(y.tolist()),
            "source": "torch " + torch.__version__ + ", make_torch_safetensors.py"}
save_file(model.state_dict(), sys.argv[1], metadata=metadata)
