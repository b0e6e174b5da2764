#!/usr/bin/env python3
"""NP2: nanoarrow's CDeviceArray.__arrow_c_device_array__ refuses a keyword
argument whose value is None.

Spec (Arrow PyCapsule Interface, "Device Support"): the device-aware
methods should accept additional keyword arguments if their value is None,
so that new optional keywords can be added later with None as their
default; the implementor raises NotImplementedError only for one it does
not recognise that is passed with another value.

nanoarrow 0.9.0 (src/nanoarrow/_array.pyx, CDeviceArray.__arrow_c_device_array__)
is declared `def __arrow_c_device_array__(self, requested_schema=None)`,
with no **kwargs: Python itself raises TypeError for any other keyword,
None or not (its type stub, _array.pyi, declares *args, **kwargs).  It is
nanoarrow 0.9's one __arrow_c_device_array__ (nanoarrow.device.c_device_array
returns a CDeviceArray); nanoarrow has no __arrow_c_device_stream__.

Standalone: needs nanoarrow alone.  Exit 0 and "REPRODUCED NP2: ..." when
the call raises, 1 and "NOT REPRODUCED NP2: ..." when it returns the
capsules, 2 on a setup error (ci/check-reproductions.sh).
"""
import sys

try:
    import nanoarrow
    import nanoarrow.device
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

device_array = nanoarrow.device.c_device_array(nanoarrow.c_array([1, None, 3], nanoarrow.int32()))
print("spec: __arrow_c_device_array__ should accept further keyword arguments whose value is None")
try:
    schema_capsule, array_capsule = device_array.__arrow_c_device_array__(requested_schema=None,
                                                                          some_future_keyword=None)
except Exception as error:  # what the interface asks not to happen
    print(f"nanoarrow {nanoarrow.__version__}: CDeviceArray.__arrow_c_device_array__("
          f"requested_schema=None, some_future_keyword=None) raised {type(error).__name__}: {error}")
    print("REPRODUCED NP2: nanoarrow's __arrow_c_device_array__ takes no **kwargs, so a None keyword is refused")
    sys.exit(0)
print(f"nanoarrow {nanoarrow.__version__}: the call returned the capsules")
print("NOT REPRODUCED NP2: a keyword argument with the value None is accepted")
sys.exit(1)
