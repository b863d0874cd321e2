# Writes the .npy/.npz fixtures NpyTest reads, with NumPy itself (python3 make_fixtures.py).
import numpy as np

a = np.arange(6, dtype=np.float32).reshape(2, 3) / 4 - 0.5
np.save("f4.npy", a)
np.save("f8.npy", a.astype(np.float64))
np.save("f2.npy", a.astype(np.float16))
np.save("i4.npy", np.array([-3, 0, 7, 2**31 - 1], dtype=np.int32))
np.save("i8.npy", np.array([[-(2**40), 5], [6, 2**62]], dtype=np.int64))
np.save("u1.npy", np.array([0, 200, 255], dtype=np.uint8))
np.save("b1.npy", np.array([True, False, True]))
np.save("be_f4.npy", a.astype(">f4"))
np.save("fortran.npy", np.asfortranarray(np.arange(12, dtype=np.int64).reshape(3, 4)))
np.save("scalar.npy", np.float32(2.5))
np.save("empty.npy", np.zeros((0, 3), dtype=np.float32))
x = np.array([[0.5, -1.0], [2.0, 0.25], [1.5, 1.5]])  # float64, as a NumPy user makes it
y = np.array([0, 2, 1])                                # int64
np.savez("data.npz", x=x, y=y)
np.savez_compressed("data_compressed.npz", x=x, y=y)
np.save("c8.npy", np.array([1 + 2j], dtype=np.complex64))
