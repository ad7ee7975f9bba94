#include "core/egraph/convert.h"

#include <algorithm>
#include <charconv>
#include <forward_list>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/egraph/id_table.h"
#include "core/graph/graph_dot.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

// Names, each numbered in the order it was added, kept as views (the strings must outlive the
// index): a flat table (IdTable) over the list of names, so neither a lookup nor an insertion
// allocates.
class NameIndex {
 public:
  void reserve(size_t n) {
    names_.reserve(n);
    index_.reserve(n);
  }

  std::optional<uint32_t> find(std::string_view name) const {
    return index_.find(hash(name), [&](uint32_t k) { return same(names_[k], name); });
  }

  // The number of `name`, and whether this call added it.
  std::pair<uint32_t, bool> insert(std::string_view name) {
    size_t h = hash(name);
    if (auto k = index_.find(h, [&](uint32_t k) { return same(names_[k], name); }))
      return {*k, false};
    auto k = static_cast<uint32_t>(names_.size());
    index_.insert(k, h);
    names_.push_back(name);
    return {k, true};
  }

 private:
  // FNV-1a, cheaper than std::hash on short names; its well-mixed high half is folded into the
  // low bits the table indexes by.
  static size_t hash(std::string_view name) {
    uint64_t h = stable_hash(name);
    return static_cast<size_t>(h ^ (h >> 32));
  }

  // Byte by byte: a name is a few bytes long, and the call to memcmp that == makes costs more
  // than comparing them.
  static bool same(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

  std::vector<std::string_view> names_;
  IdTable index_;  // numbers, hashed by name
};

}  // namespace

GraphMeta add_graph(EGraph& eg, const Graph& g) {
  GraphMeta meta;
  meta.name = g.name;
  // Value name (a view of g's) -> its term.
  NameIndex values;
  std::vector<EClassId> terms;
  auto set_term = [&](std::string_view value, EClassId term) {
    auto [k, added] = values.insert(value);
    if (added)
      terms.push_back(term);
    else
      terms[k] = term;
  };
  auto term_of = [&](std::string_view value) -> std::optional<EClassId> {
    if (auto k = values.find(value)) return terms[*k];
    return std::nullopt;
  };
  // Op name (a view of g's) -> its id: a graph names a few ops many times.
  NameIndex op_names;
  std::vector<OpId> op_ids;
  auto op_of = [&](std::string_view op) {
    if (auto k = op_names.find(op)) return op_ids[*k];
    OpId id = op_id(op);
    op_names.insert(op);
    op_ids.push_back(id);
    return id;
  };
  auto add_output = [&](const Node& node, size_t k, EClassId id) {
    set_term(node.outputs[k], id);
    // Filled in place (clang 14 has no emplace of an aggregate from its fields).
    OriginalValue& o = meta.originals.emplace_back();
    o.term = id;
    o.value = node.outputs[k];
    o.node = node.name;
  };
  size_t output_count = 0;
  for (const Node& node : g.nodes) output_count += node.outputs.size();
  size_t value_count = g.inputs.size() + g.constants.size() + output_count;
  values.reserve(value_count);
  terms.reserve(value_count);
  meta.originals.reserve(output_count);
  for (const auto& in : g.inputs) {
    set_term(in.name, eg.add_input(in.name, in.type));
    meta.input_names.push_back(in.name);
  }
  for (const auto& c : g.constants) {
    set_term(c.name, eg.add_const(c));
    meta.constant_names.push_back(c.name);
  }
  std::vector<EClassId> children;  // the node's, reused from node to node
  for (const Node& node : g.nodes) {
    try {
      children.clear();
      for (const auto& in : node.inputs) {
        if (in.empty()) fail("an omitted optional input cannot be represented in the e-graph");
        auto term = term_of(in);
        if (!term) fail("input '{}' is not defined (run infer_graph first)", in);
        children.push_back(*term);
      }
      if (node.is_opaque()) {
        OpaqueOp opaque{node.op, node.attrs, *node.opaque};
        for (size_t k = 0; k < node.outputs.size(); ++k)
          add_output(node, k, eg.add_opaque(opaque, children, static_cast<unsigned>(k)));
      } else if (!node.outputs.empty()) {
        // A registry op's e-node, made once for all its outputs.
        ENode op = make_enode(op_of(node.op), node.attrs, children, 0,
                              static_cast<unsigned>(node.outputs.size()));
        for (size_t k = 0; k < node.outputs.size(); ++k) {
          op.out = static_cast<uint16_t>(k);
          add_output(node, k, eg.add(op));
        }
      }
    } catch (const Error& e) {
      throw e.at_node(node_title(node));
    }
  }
  // New terms come in increasing id order. A node identical to an earlier one yields the
  // earlier term, which keeps the earlier names; so does a node that hash-conses to a term of
  // a graph added before this one, which lands out of order.
  auto term_less = [](const OriginalValue& a, const OriginalValue& b) { return a.term < b.term; };
  auto& originals = meta.originals;
  if (!std::is_sorted(originals.begin(), originals.end(), term_less) ||
      std::adjacent_find(originals.begin(), originals.end(), [](const auto& a, const auto& b) {
        return a.term == b.term;
      }) != originals.end()) {
    std::stable_sort(originals.begin(), originals.end(), term_less);
    originals.erase(std::unique(originals.begin(), originals.end(),
                                [](const auto& a, const auto& b) { return a.term == b.term; }),
                    originals.end());
  }
  std::vector<EClassId> outs;
  for (const auto& o : g.outputs) {
    auto term = term_of(o);
    if (!term) fail("output '{}' is not defined", o);
    outs.push_back(*term);
  }
  meta.output_names = g.outputs;
  meta.root = eg.add_graph_out(outs);
  return meta;
}

const OriginalValue* GraphMeta::original(EClassId term) const {
  auto it = std::lower_bound(originals.begin(), originals.end(), term,
                             [](const OriginalValue& o, EClassId t) { return o.term < t; });
  return it != originals.end() && it->term == term ? &*it : nullptr;
}

namespace {

// Value or node names: those taken so far, and where the search for a fresh one resumes. A
// fresh name is stem+i. Names of that form are kept by their number i (free, reserved by the
// original graph, or used), so neither the search for a fresh name nor a claim of one builds
// or hashes a string; only other names go into a set.
class Names {
 public:
  explicit Names(char stem) : stem_(stem) {}

  // Keeps an original name of the form stem+i from being handed out as a fresh name.
  void reserve(std::string_view name) {
    if (auto i = number(name); i && state(*i) == kFree) set(*i, kReserved);
  }

  // Takes `name`; false when it was already taken.
  bool claim(std::string_view name) {
    auto i = number(name);
    if (!i) return others_.insert(name).second;
    if (state(*i) == kUsed) return false;
    set(*i, kUsed);
    return true;
  }

  // Takes and returns the next name stem+i that is neither used nor reserved.
  std::string fresh() {
    while (state(next_) != kFree) ++next_;
    set(next_, kUsed);
    char text[24] = {stem_};
    char* end = std::to_chars(text + 1, text + sizeof text, next_++).ptr;
    return std::string(text, end);
  }

  void expect(size_t names) { others_.reserve(names); }

 private:
  static constexpr uint8_t kFree = 0, kReserved = 1, kUsed = 2;

  // i when `name` is stem+i (i written without leading zeros, at most 9 digits).
  std::optional<size_t> number(std::string_view name) const {
    if (name.size() <= 1 || name[0] != stem_) return {};
    std::string_view digits = name.substr(1);
    if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0')) return {};
    size_t i = 0;
    for (char ch : digits) {
      if (ch < '0' || ch > '9') return {};
      i = 10 * i + static_cast<size_t>(ch - '0');
    }
    return i;
  }
  uint8_t state(size_t i) const { return i < states_.size() ? states_[i] : kFree; }
  void set(size_t i, uint8_t s) {
    if (i >= states_.size()) states_.resize(std::max(i + 1, 2 * states_.size()), kFree);
    states_[i] = s;
  }

  char stem_;
  // Used names not of the form stem+i. Only original names get here (inputs, constants, the
  // GraphMeta's names, outputs' wanted names), which all outlive the restore: no copies.
  NameIndex others_;
  std::vector<uint8_t> states_;  // by i: the state of stem+i
  size_t next_ = 0;              // no fresh name below stem+next_ is free
};

// The original terms grouped by class, each group in term-id order. An original term can only
// canonicalise to an e-node of its own class, so finding the names of a chosen e-node walks
// the few original terms of its class instead of hashing every original term's e-node.
class OriginalNames {
 public:
  OriginalNames(const EGraph& eg, const std::vector<OriginalValue>& originals)
      : originals_(originals), head_(eg.term_count(), kNone), next_(originals.size()) {
    // Linked from the last term to the first, so each class's list runs in term order.
    for (size_t i = originals.size(); i-- > 0;) {
      uint32_t& head = head_[eg.find(originals[i].term).value];
      next_[i] = head;
      head = static_cast<uint32_t>(i);
    }
  }

  // The original term of class `c` with the lowest id, or nullptr.
  const OriginalValue* first(EClassId c) const {
    return head_[c.value] == kNone ? nullptr : &originals_[head_[c.value]];
  }

  // The first original term that canonicalises to `n`, the chosen e-node of class `c`, or
  // nullptr.
  const OriginalValue* find(const EGraph& eg, EClassId c, const ENode& n) const {
    for (uint32_t i = head_[c.value]; i != kNone; i = next_[i])
      if (eg.canonicalizes_to(originals_[i].term, n)) return &originals_[i];
    return nullptr;
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  const std::vector<OriginalValue>& originals_;
  std::vector<uint32_t> head_;  // by class id: its first original, or kNone
  std::vector<uint32_t> next_;  // by original: the next one of its class, or kNone
};

// Graph::types, gathered while the nodes are emitted and handed over sorted by name at the end
// (ValueTypes::assign then only checks the order): the sort compares names by their first eight
// bytes, read as one number, before it compares strings, and keeps a repeated name's entries in
// the order they were added, so that assign keeps the first, as emplace would.
class Types {
 public:
  // `name` must stay where it is until move_into: the restorer passes the graph's own strings
  // (a node's outputs keep their heap buffer when the node moves).
  void add(const std::string& name, const TensorType& type) {
    entries_.push_back({prefix(name), static_cast<uint32_t>(entries_.size()), &name, &type});
  }
  // For a type nothing else holds; kept until move_into.
  void add(const std::string& name, TensorType&& type) {
    add(name, inferred_.emplace_front(std::move(type)));
  }
  void reserve(size_t n) { entries_.reserve(n); }

  void move_into(ValueTypes& types) {
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      if (a.prefix != b.prefix) return a.prefix < b.prefix;
      if (int c = a.name->compare(*b.name)) return c < 0;
      return a.index < b.index;
    });
    std::vector<ValueTypes::value_type> sorted;
    sorted.reserve(entries_.size());
    for (const Entry& e : entries_) sorted.emplace_back(*e.name, *e.type);
    types.assign(std::move(sorted));  // which keeps the first of a repeated name
    entries_.clear();
    inferred_.clear();
  }

 private:
  // The first eight bytes of `name`, zero-padded, big-endian: comparing two of these orders the
  // names as std::string does wherever they differ.
  static uint64_t prefix(const std::string& name) {
    uint64_t p = 0;
    size_t n = std::min<size_t>(name.size(), 8);
    for (size_t i = 0; i < n; ++i)
      p |= uint64_t{static_cast<unsigned char>(name[i])} << (56 - 8 * i);
    return p;
  }

  struct Entry {
    uint64_t prefix;
    uint32_t index;  // order of addition, for ties
    const std::string* name;
    const TensorType* type;
  };
  std::vector<Entry> entries_;
  std::forward_list<TensorType> inferred_;
};

// Builds the graph of a selection; one instance per restore_graph call.
class Restorer {
 public:
  Restorer(const EGraph& eg, const GraphMeta& meta, const Selection& sel)
      : eg_(eg), meta_(meta), sel_(sel), original_(eg, meta.originals) {
    // Only the fresh names' search reads the reserved names: stem+i ones are all it can meet.
    for (const OriginalValue& o : meta.originals) reserve(o.value);
    for (const auto& o : meta.output_names) reserve(o);
    classes_.resize(eg.term_count());
    for (const auto& [c, n] : sel.chosen) {
      if (c.value >= classes_.size())
        fail("the selection names e-class e{}, not in the e-graph", c.value);
      classes_[c.value].chosen = &n;
    }
  }

  RestoredGraph run() {
    EClassId root = eg_.find(meta_.root);
    if (sel_.root != root) fail("the selection is not rooted at the graph's root class");
    const ENode& out_node = chosen(root);
    if (out_node.op != special_ops::kGraphOut)
      fail("the root class's chosen e-node is '{}', not graph_out", op_name(out_node.op));

    std::vector<EClassId> order = topological_classes(out_node);
    // Sized once: a variant is built node by node, and regrowing these costs more than filling.
    g_.nodes.reserve(order.size() + out_node.children.size());
    // A value name per class, input, constant and output at most: the table of names not of the
    // form v+i is sized for them. Node names not of the form n+i (an imported model's) are
    // rarer: their table grows when one comes.
    values_.expect(order.size() + out_node.children.size() + eg_.inputs().size() +
                   eg_.constants().size());
    for (const auto& [name, _] : eg_.inputs()) values_.claim(name);
    for (const auto& [name, _] : eg_.constants()) values_.claim(name);
    types_.reserve(order.size() + eg_.inputs().size() + eg_.constants().size());
    names_.reserve(order.size());
    g_.name = meta_.name;
    g_.inputs.reserve(meta_.input_names.size());
    for (const auto& name : meta_.input_names) g_.inputs.push_back({name, eg_.inputs().at(name)});
    wanted_ = output_names(out_node);
    name_outputs_first(out_node);
    // The original names of each class's chosen e-node, looked up once for its value and node.
    std::vector<const OriginalValue*> originals(order.size());
    for (size_t i = 0; i < order.size(); ++i) originals[i] = name_class(order[i]);
    add_constants(order);
    type_sources();
    for (size_t i = 0; i < order.size(); ++i) emit_node(order[i], originals[i]);
    types_.move_into(g_.types);
    set_outputs(out_node);
    return {std::move(g_), deepest_};
  }

 private:
  // Classes reachable from the root's children, children before parents.
  std::vector<EClassId> topological_classes(const ENode& root_node) {
    std::vector<EClassId> order;
    order.reserve(sel_.chosen.size());  // every class it lists, at most
    // A class on the depth-first path, with its chosen e-node's children and the next to visit.
    struct Frame {
      EClassId cls;
      std::span<const EClassId> children;
      size_t next = 0;
    };
    std::vector<Frame> stack;
    auto enter = [&](EClassId c) {
      classes_[c.value].visit = kOnStack;
      stack.push_back({c, chosen(c).children.span()});
    };
    for (EClassId top : root_node.children) {
      EClassId t = eg_.find(top);
      if (classes_[t.value].visit == kDone) continue;
      enter(t);
      while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.next < f.children.size()) {
          EClassId d = eg_.find(f.children[f.next++]);
          uint8_t visit = classes_[d.value].visit;
          if (visit == kOnStack) fail("the selection is cyclic at e-class e{}", d.value);
          if (visit == kUnvisited) enter(d);
          continue;
        }
        classes_[f.cls.value].visit = kDone;
        order.push_back(f.cls);
        stack.pop_back();
      }
    }
    return order;
  }

  void reserve(const std::string& name) {
    values_.reserve(name);
    nodes_.reserve(name);
  }

  const ENode& chosen(EClassId c) const {
    const ENode* n = classes_[c.value].chosen;
    if (!n) fail("the selection has no e-node for class e{}", c.value);
    return *n;
  }

  bool has_name(EClassId c) const { return classes_[c.value].name != kNoName; }
  const std::string& name_of(EClassId c) const {
    if (!has_name(c)) fail("e-class e{} has no name in the restored graph", c.value);
    return names_[classes_[c.value].name];
  }
  void set_name(EClassId c, std::string name) {
    classes_[c.value].name = static_cast<uint32_t>(names_.size());
    names_.push_back(std::move(name));
  }

  // The name each output of the chosen graph_out should have: the original output it computes
  // (its class, in the original graph_out's order, so that reordered outputs keep their names),
  // else the original value of its class (an exposed intermediate keeps the name it had). Outputs
  // are matched by name first (core/compare/output_match.h).
  struct Wanted {
    std::string_view name;  // one of meta_'s names, or empty
    bool original = false;  // the name of an original output
  };
  std::vector<Wanted> output_names(const ENode& root_node) {
    const ENode& own = eg_.term(meta_.root);
    // Each class's original outputs, in order: an output takes the first one of its class that
    // no earlier output took.
    size_t n_own = std::min(meta_.output_names.size(), own.children.size());
    std::vector<uint32_t> next_output(n_own, kNone);
    for (size_t k = n_own; k-- > 0;) {
      uint32_t& first = classes_[eg_.find(own.children[k]).value].first_output;
      next_output[k] = first;
      first = static_cast<uint32_t>(k);
    }
    std::vector<Wanted> wanted(root_node.children.size());
    for (size_t i = 0; i < wanted.size(); ++i) {
      EClassId c = eg_.find(root_node.children[i]);
      uint32_t& first = classes_[c.value].first_output;
      if (first != kNone) {
        wanted[i] = {meta_.output_names[first], true};
        first = next_output[first];
      } else if (const OriginalValue* o = original_.first(c)) {
        wanted[i].name = o->value;
      }
    }
    return wanted;
  }

  // The outputs take their wanted names when an op node computes them.
  void name_outputs_first(const ENode& root_node) {
    for (size_t i = 0; i < root_node.children.size(); ++i) {
      EClassId c = eg_.find(root_node.children[i]);
      if (wanted_[i].name.empty() || has_name(c) || is_leaf_op(chosen(c).op)) continue;
      if (values_.claim(wanted_[i].name)) set_name(c, std::string(wanted_[i].name));
    }
  }

  // Names the class's value; returns the original names of its chosen e-node, if any.
  const OriginalValue* name_class(EClassId c) {
    const ENode& n = chosen(c);
    if (is_leaf_op(n.op)) {
      if (!has_name(c)) set_name(c, leaf_name(n));
      return nullptr;
    }
    const OriginalValue* original = original_.find(eg_, c, n);
    if (has_name(c)) return original;
    if (original && values_.claim(original->value))
      set_name(c, original->value);
    else
      set_name(c, values_.fresh());
    return original;
  }

  void add_constants(const std::vector<EClassId>& order) {
    std::set<std::string> used;
    for (EClassId c : order)
      if (chosen(c).op == special_ops::kConst) used.insert(leaf_name(chosen(c)));
    for (const auto& name : meta_.constant_names)
      if (used.erase(name)) g_.constants.push_back(*eg_.find_constant(name));
    for (const auto& name : used) g_.constants.push_back(*eg_.find_constant(name));
  }

  // The graph is typed from the e-class analysis, which already holds every chosen class's
  // type: re-running infer_graph on each variant would repeat the e-graph's inference.
  void type_sources() {
    for (const ValueInfo& in : g_.inputs) types_.add(in.name, in.type);
    for (const Constant& c : g_.constants) types_.add(c.name, c.value.type());
  }

  void emit_node(EClassId c, const OriginalValue* original) {
    const ENode& n = chosen(c);
    if (is_leaf_op(n.op)) return;
    // The e-nodes of one multi-output op become a single node: the first one seen emits it.
    ENode key;  // n with `out` cleared and canonical children, for a multi-output op
    bool emits = true;
    if (n.n_out > 1) {
      key = eg_.canonicalize(n);
      key.out = 0;
      emits = emitted_multi_.emplace(key, g_.nodes.size()).second;
    }
    // Filled in place: no Node is moved or destroyed.
    Node* node = emits ? &g_.nodes.emplace_back() : nullptr;
    if (node) node->inputs.reserve(n.children.size());
    // graph_depth's measure, from the classes: their node's inputs are the children's values.
    uint32_t below = 0;
    for (EClassId ch : n.children) {
      EClassId d = eg_.find(ch);
      below = std::max(below, classes_[d.value].depth);
      if (node) node->inputs.push_back(name_of(d));
    }
    classes_[c.value].depth = below + 1;
    deepest_ = std::max<size_t>(deepest_, below + 1);
    if (!node) return;
    emit_outputs(c, n, key, *node, original);
  }

  // Fills in the node emit_node started for class c's e-node n (key: emit_node's multi-output
  // key): its outputs, named and typed, its op, attributes and name.
  void emit_outputs(EClassId c, const ENode& n, const ENode& key, Node& node,
                    const OriginalValue* original) {
    node.outputs.reserve(n.n_out);
    for (unsigned k = 0; k < n.n_out; ++k) {
      if (k == n.out) {
        node.outputs.push_back(name_of(c));
        types_.add(node.outputs.back(), eg_.type(c));
        continue;
      }
      ENode sibling = key;
      sibling.out = static_cast<uint16_t>(k);
      auto cls = eg_.lookup(sibling);
      const ENode* chosen_sibling = cls ? classes_[cls->value].chosen : nullptr;
      if (chosen_sibling && *chosen_sibling == sibling && has_name(*cls))
        node.outputs.push_back(name_of(*cls));
      else
        node.outputs.push_back(values_.fresh());
      // An output no rule asked for may have no class yet; the registry still knows its type.
      if (cls)
        types_.add(node.outputs.back(), eg_.type(*cls));
      else
        types_.add(node.outputs.back(), eg_.infer(sibling));
    }
    if (n.op == special_ops::kOpaque) {
      const OpaqueOp& op = eg_.opaque_op(n);
      node.op = op.op_type;
      node.attrs = op.attrs;
      node.opaque = op.info;
    } else {
      node.op = op_name(n.op);
      node.attrs = attrs_of(n.attrs);
    }
    if (original && nodes_.claim(original->node))
      node.name = original->node;
    else
      node.name = nodes_.fresh();
  }

  // An original output keeps its name; where the chosen value has another name (an input, a
  // constant, or a value already listed) an identity node gives it that name.
  void set_outputs(const ENode& root_node) {
    // Views of g_.outputs' names, which its reserve keeps in place.
    NameIndex listed;
    listed.reserve(root_node.children.size());
    g_.outputs.reserve(root_node.children.size());
    for (size_t i = 0; i < root_node.children.size(); ++i) {
      const std::string& value = name_of(eg_.find(root_node.children[i]));
      bool original = wanted_[i].original;
      bool fits = original ? value == wanted_[i].name : !listed.find(value);
      std::string name = value;
      if (!fits && OpRegistry::instance().find("identity")) {
        name = original && values_.claim(wanted_[i].name) ? std::string(wanted_[i].name)
                                                          : values_.fresh();
        Node id;
        id.op = "identity";
        id.name = nodes_.fresh();
        id.inputs = {value};
        id.outputs = {name};
        g_.types.emplace(name, g_.types.at(value));
        g_.nodes.push_back(std::move(id));
        deepest_ =
            std::max<size_t>(deepest_, classes_[eg_.find(root_node.children[i]).value].depth + 1);
      }
      const std::string& listed_name = g_.outputs.emplace_back(std::move(name));
      if (!listed.insert(listed_name).second)
        fail("output {} repeats value '{}' and the registry has no identity op", i, listed_name);
    }
  }

  const EGraph& eg_;
  const GraphMeta& meta_;
  const Selection& sel_;
  Graph g_;
  OriginalNames original_;
  static constexpr uint32_t kNoName = UINT32_MAX, kNone = UINT32_MAX;
  enum : uint8_t { kUnvisited, kOnStack, kDone };  // topological_classes' marks
  struct ClassState {
    const ENode* chosen = nullptr;  // the selection's e-node, where it has one
    uint32_t name = kNoName;        // its value's name: an index into names_
    uint32_t depth = 0;             // the longest chain of nodes up to its value
    uint32_t first_output = kNone;  // output_names' list of its original outputs
    uint8_t visit = kUnvisited;
  };
  std::vector<ClassState> classes_;  // by class id
  std::vector<std::string> names_;   // the values' names, in the order they were given
  size_t deepest_ = 0;
  std::vector<Wanted> wanted_;  // per output of the chosen graph_out
  Names values_{'v'}, nodes_{'n'};
  Types types_;  // Graph::types until the nodes are emitted
  std::unordered_map<ENode, size_t, ENodeHash> emitted_multi_;
};

}  // namespace

RestoredGraph restore_measured(const EGraph& eg, const GraphMeta& meta,
                               const Selection& selection) {
  return Restorer(eg, meta, selection).run();
}

Graph restore_graph(const EGraph& eg, const GraphMeta& meta, const Selection& selection) {
  return restore_measured(eg, meta, selection).graph;
}

}  // namespace retort
