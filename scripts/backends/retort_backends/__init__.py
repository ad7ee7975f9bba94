"""What every Retort backend worker shares (docs/backend-protocol.md).

protocol  frames on stdin/stdout and the request loop
tensors   Retort dtype names <-> numpy, tensors in and out of blobs
errors    the kinds of failure and the text a worker may send back
model     the ONNX model as a worker sees it: types, constants, the nodes an output needs
program   generated Python programs: identifiers, literals, linecache, blame by line
worker    a worker's life: options, the compile cache, timing, checking, answering
*_ops     the ONNX op -> framework conversion tables
"""
