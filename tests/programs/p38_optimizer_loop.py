# An optimization loop as optimizer tutorials write it: minimize the Rosenbrock function with
# Adam for 200 steps and a StepLR schedule, then the same with SGD + momentum for comparison.
import torch


def rosenbrock(xy):
    x, y = xy
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


for name in ["Adam", "SGD"]:
    xy = torch.tensor([-1.5, 2.0], requires_grad=True)
    if name == "Adam":
        optimizer = torch.optim.Adam([xy], lr=0.05)
    else:
        optimizer = torch.optim.SGD([xy], lr=2e-4, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=80, gamma=0.5)
    history = []
    for step in range(200):
        optimizer.zero_grad()
        loss = rosenbrock(xy)
        loss.backward()
        optimizer.step()
        scheduler.step()
        history.append(loss.item())
        if step % 40 == 0 or step == 199:
            print(f"{name} step {step:3d}: f = {loss.item():.5f}, xy = {xy.tolist()}, "
                  f"lr = {scheduler.get_last_lr()[0]:.4f}")
    print(name, f"best {min(history):.6f}", f"final {rosenbrock(xy).item():.6f}")
    print(xy.grad, type(optimizer).__name__, optimizer.param_groups[0]["lr"])
