import onnx, sys
m = onnx.load(sys.argv[1])
for n in m.graph.node:
    print(n.op_type, list(n.input), "->", list(n.output), {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute})
print("outputs", [o.name for o in m.graph.output])
