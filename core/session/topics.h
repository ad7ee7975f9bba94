// What a session publishes about itself: a version per part (topic) that every change to that
// part bumps. Front ends keep the versions they last drew and redraw only what moved, instead
// of comparing snapshots. Versions are atomic: a campaign publishes progress from the command
// thread while the screen thread reads.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace retort {

enum class Topic : uint8_t {
  Graph,     // the current graph (load, def, gen, new, open)
  EGraph,    // the e-graph, its trace and the rule book (rewrites, undo, rules enable)
  Variants,  // the named variant graphs
  Values,    // the values of the last `eval`
  Results,   // the last comparison
  Campaign,  // the progress of the campaign this session runs or ran last
  Program,   // TorchProbe's program mutations and the program a backend last showed
};
inline constexpr size_t kTopicCount = 7;

// A set of topics, e.g. the topics that changed since a pane last drew.
class TopicSet {
 public:
  TopicSet() = default;
  TopicSet(std::initializer_list<Topic> topics) {
    for (Topic t : topics) add(t);
  }
  static TopicSet all() { return TopicSet((1u << kTopicCount) - 1); }
  void add(Topic t) { bits_ |= bit(t); }
  bool has(Topic t) const { return (bits_ & bit(t)) != 0; }
  bool intersects(TopicSet other) const { return (bits_ & other.bits_) != 0; }
  bool empty() const { return bits_ == 0; }
  bool operator==(const TopicSet&) const = default;

 private:
  explicit TopicSet(uint32_t bits) : bits_(bits) {}
  static uint32_t bit(Topic t) { return 1u << static_cast<uint32_t>(t); }
  uint32_t bits_ = 0;
};

using TopicVersions = std::array<uint64_t, kTopicCount>;

// The versions a session publishes.
class TopicClock {
 public:
  void bump(Topic t) { at(t).fetch_add(1, std::memory_order_release); }
  void bump_all() {
    for (auto& v : versions_) v.fetch_add(1, std::memory_order_release);
  }
  TopicVersions now() const {
    TopicVersions v{};
    for (size_t i = 0; i < kTopicCount; ++i) v[i] = versions_[i].load(std::memory_order_acquire);
    return v;
  }
  // The topics whose version differs between two readings.
  static TopicSet changed(const TopicVersions& before, const TopicVersions& after) {
    TopicSet set;
    for (size_t i = 0; i < kTopicCount; ++i)
      if (before[i] != after[i]) set.add(static_cast<Topic>(i));
    return set;
  }

 private:
  std::atomic<uint64_t>& at(Topic t) { return versions_[static_cast<size_t>(t)]; }
  std::array<std::atomic<uint64_t>, kTopicCount> versions_{};
};

}  // namespace retort
