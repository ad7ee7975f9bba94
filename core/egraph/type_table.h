// The tensor types of an e-graph's classes, interned, and memoised registry type inference over
// them. An e-class stores a 4-byte TypeId, so comparing two classes' types (every merge does) is
// an integer compare. An op's inference is a pure function of the e-node's op, attributes and
// output index and of its children's types, and a saturation asks the same question over and
// over (every rewrite that builds an add of two f32[4,4] operands re-infers it), so each answer,
// or the Error it gave, is kept, keyed by type ids: a repeated question copies no TensorType.
#pragma once

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/egraph/enode.h"
#include "core/egraph/id_table.h"
#include "core/tensor/tensor.h"

namespace retort {

class TypeTable {
 public:
  TypeTable();
  TypeTable(const TypeTable&) = delete;
  TypeTable& operator=(const TypeTable&) = delete;

  // A table for a new e-graph: the one the last e-graph on this thread gave back, or a new one.
  // Type ids mean nothing outside their table, so a lent table's first ids being taken changes
  // nothing an e-graph does.
  static std::unique_ptr<TypeTable> lend();
  // Keeps `table` for this thread's next e-graph, unless one is kept already, or it answered a
  // question over attributes of an AttrsScope (whose ids die with the scope), or it has grown past
  // a bound (a long campaign's types must not pile up).
  static void give_back(std::unique_ptr<TypeTable> table);
  // Unique to this table in the process: what a cache keyed by its type ids checks (a lent table
  // keeps its ids, and a freed table's address may be reused).
  uint64_t serial() const { return serial_; }

  TypeId intern(const TensorType& t);
  // The type of an id this table handed out; the reference stays valid for the table's life.
  // kNoType (the graph_out class) throws Error. Inline: every type a rule's clause asks for
  // comes through here.
  const TensorType& at(TypeId id) const {
    if (id == kNoType || id.value >= types_.size()) fail_at(id);
    return *types_[id.value];
  }
  // The type of output node.out of a registry op over children of the given types: the
  // registry's answer, or the same Error it threw the first time.
  TypeId infer(const ENode& node, std::span<const TypeId> child_types);

  size_t size() const { return types_.size(); }
  size_t bytes() const;  // an estimate of the heap it holds

 private:
  // A question: (op, attributes, output and output count, child types), stored as words in
  // keys_[begin, begin + size); the answer is a type or errors_[error].
  struct Answer {
    uint32_t begin = 0, size = 0;
    TypeId type;
    uint32_t error = kNoError;
  };
  static constexpr uint32_t kNoError = UINT32_MAX;

  static constexpr size_t kKeptTypes = 1024, kKeptAnswers = 16384;

  bool asks(const Answer& a, const ENode& node, std::span<const TypeId> child_types) const;
  [[noreturn]] static void fail_at(TypeId id);

  // By id (null for kNoType), each type in its own block so that references survive growth;
  // an e-graph holds a few dozen types.
  std::vector<std::unique_ptr<const TensorType>> types_;
  std::unordered_map<TensorType, TypeId, TensorTypeHash> index_;
  // The answers, found through an open-addressing table of their numbers keyed by the question
  // (id_table.h): a repeated question builds no key and allocates nothing.
  std::vector<uint32_t> keys_;
  std::vector<Answer> answers_;
  std::vector<Error> errors_;
  IdTable by_question_;
  // The operand types of the question being answered, in the vector the registry's inference
  // takes: kept between questions so that its types' shapes keep their storage.
  std::vector<TensorType> operands_;
  uint64_t serial_;
  bool scoped_ = false;  // an answer is keyed by an AttrsScope's attributes
};

// The type a registry op e-node would have over children of the given types, computed by the
// registry (uncached). Throws Error; special ops need the e-graph (EGraph::infer).
TensorType infer_op_type(const ENode& node, std::span<const TensorType> child_types);

}  // namespace retort
