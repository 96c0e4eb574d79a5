# torch.linalg as numerical-methods notebooks use it: solving systems, inverses, determinants,
# Cholesky, QR and symmetric eigendecompositions, least squares, norms, and a gradient of det.
import torch

A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]])
b = torch.tensor([1.0, 2.0, 3.0])
x = torch.linalg.solve(A, b)
print(x, torch.allclose(A @ x, b, atol=1e-5))
A_inv = torch.linalg.inv(A)
print(A_inv)
print(torch.dist(A @ A_inv, torch.eye(3)) < 1e-5, torch.linalg.det(A), torch.det(A))
sign, logabsdet = torch.linalg.slogdet(A)
print(sign, logabsdet)

L = torch.linalg.cholesky(A)
print(L, torch.allclose(L @ L.T, A, atol=1e-5))
Q, R = torch.linalg.qr(A)
print(Q.shape, R.shape, torch.allclose(Q @ R, A, atol=1e-5), torch.allclose(Q.T @ Q, torch.eye(3), atol=1e-5))
print(R.diagonal().abs())
eigvals, eigvecs = torch.linalg.eigh(A)
print(eigvals)
print(torch.allclose(eigvecs @ torch.diag(eigvals) @ eigvecs.T, A, atol=1e-4))
print(torch.linalg.eigvalsh(A).sum(), torch.trace(A))

X = torch.stack([torch.ones(5), torch.arange(5.0)], 1)
y = torch.tensor([1.0, 3.1, 4.9, 7.2, 8.8])
coef = torch.linalg.lstsq(X, y.unsqueeze(1)).solution
print(coef.flatten())
print(torch.linalg.pinv(X) @ y)

v = torch.tensor([3.0, -4.0])
print(torch.linalg.norm(v), torch.linalg.norm(v, ord=1), torch.linalg.vector_norm(v, ord=float("inf")))
print(torch.linalg.norm(A), torch.linalg.matrix_norm(A, ord="fro"), torch.linalg.matrix_norm(A, ord=1))
print(torch.linalg.svdvals(A), torch.linalg.matrix_rank(X), torch.linalg.cond(A))

M = A.clone().requires_grad_(True)
d = torch.linalg.det(M)
d.backward()
print(d, M.grad)
print(torch.allclose(M.grad, d.detach() * torch.linalg.inv(A).T, atol=1e-4))
W = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
loss = torch.linalg.solve(W, torch.tensor([1.0, 2.0])).sum()
loss.backward()
print(f"{loss.item():.4f}", W.grad)
