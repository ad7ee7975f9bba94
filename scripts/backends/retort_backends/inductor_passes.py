"""Inductor's pass switches (`findings blame`, issue 41): each name the family declares
(core/backend/families/inductor.cpp) is a torch._inductor.config setting and the value that
turns its pass off. A name this table lacks, or a setting a torch release lacks, is ignored, as
the compiler ignores a pass it does not have.
"""

OFF = {
    "pattern_matcher": False,  # the pattern-matcher rewrites (pre-, joint- and post-grad)
    "joint_graph_constant_folding": False,
    "constant_and_index_propagation": False,
    "split_cat_fx_passes": False,
    "batch_fusion": False,
    "use_mixed_mm": False,
    "optimize_scatter_upon_const_tensor": False,
    "reorder_for_locality": False,
    "reorder_for_peak_memory": False,
    "epilogue_fusion": False,
    "loop_ordering_after_fusion": False,
    "split_reductions": False,
    "online_softmax": False,
    "comprehensive_padding": False,
    "shape_padding": False,
    "inplace_buffers": False,
    "allow_buffer_reuse": False,
    "max_fusion_size": 1,  # no fusion of nodes into one kernel
    "cpp.vec_isa_ok": False,  # no vectorized C++ kernels: scalar loops only
    "cpp.enable_loop_tail_vec": False,
    "cpp.enable_tiling_heuristics": False,
    "cpp.weight_prepack": False,
    "cpp.no_redundant_loops": False,
}


def disable(names):
    """Sets the switches of `names` (a list of OFF's keys) to their off values; returns the
    names it set. Imports Inductor only when there is one to set: eager and TorchScript modes
    run this worker on torch releases without it (Debian's 1.13)."""
    names = [name for name in names if name in OFF]
    if not names:
        return []
    import torch._inductor.config as config

    done = []
    for name in names:
        if name not in OFF:
            continue
        *outer, last = name.split(".")
        holder = config
        for part in outer:
            holder = getattr(holder, part)
        if hasattr(holder, last):
            setattr(holder, last, OFF[name])
            done.append(name)
    return done
