"""Stand-ins for tensors in tests that need no PyTorch: FakeTensor has what
the launcher reads of a torch.Tensor (dtype, data_ptr(), get_device()),
FakeCudaArray a __cuda_array_interface__. Neither owns memory: they are for
signature and error tests, never launched."""


class FakeTensor:
    def __init__(self, dtype, address, device=0):
        self.dtype = dtype  # "torch.float32": what str(torch.float32) gives
        self.address = address
        self.device_index = device

    def data_ptr(self):
        return self.address

    def get_device(self):
        return self.device_index

    def __repr__(self):
        return f"FakeTensor({self.dtype}, {self.address:#x}, dev {self.device_index})"


class FakeCudaArray:
    def __init__(self, typestr, address, shape=(16,)):
        self.__cuda_array_interface__ = {
            "typestr": typestr, "data": (address, False), "shape": shape,
            "version": 3}
