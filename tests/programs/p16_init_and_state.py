# Module state as tutorials handle it: init functions, state_dict, load_state_dict, train/eval.
import torch
import torch.nn as nn

torch.manual_seed(3)
layer = nn.Linear(3, 2)
print(layer.weight, layer.bias)
nn.init.xavier_uniform_(layer.weight)
nn.init.zeros_(layer.bias)
print(layer.weight)
model = nn.Sequential(layer, nn.Tanh(), nn.Linear(2, 1))
state = model.state_dict()
print(list(state.keys()), state["2.weight"].shape)
copy = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
copy.load_state_dict(state)
x = torch.randn(4, 3)
print(torch.allclose(model(x), copy(x)), model.training)
model.eval()
print(model.training, model[0].training)
print(torch.randn(2, 3), torch.rand(2), torch.randint(0, 10, (5,)), torch.randperm(6))
