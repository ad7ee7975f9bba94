#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "core/egraph/render.h"
#include "core/io/json_graph.h"
#include "core/io/json_reader.h"
#include "core/io/rtg.h"
#include "core/rules/trace_json.h"
#include "core/session/session_file.h"

#include "tests/support/fig6.h"

namespace retort {
namespace {

// A session with the fig6 rules: two steps, min extracted after the first, max after both.
void fig6_session(Session& s) {
  testing::load_fig6(s);
  s.build_egraph();
  RunnerOptions one;
  one.iter_limit = 1;
  s.run_rules(one, "step");
  s.extract_variant({}, "", "extract min");
  s.run_rules({}, "saturate");
  ExtractOptions max;
  max.mode = ExtractMode::Max;
  s.extract_variant(max, "", "extract max");
}

std::string min_term(const EGraphWork& w, ExtractMode mode) {
  ExtractOptions o;
  o.mode = mode;
  Extraction ex = extract(w.eg, w.meta, o);
  return selection_str(w.eg, ex.selection, w.meta.root);
}

TEST(TraceJson, ReplaysInAFreshEGraphFromText) {
  Session s;
  fig6_session(s);
  const EGraphWork& w = s.egraph();
  ASSERT_GT(w.trace.steps.size(), 2u);
  std::string text = trace_to_json(w.trace).dump();

  // Only the text crosses over: ops by name, attributes by value, no in-process ids.
  RewriteTrace back = trace_from_json(parse_json_text(text, "t.json"), "t.json", "");
  ASSERT_EQ(back.steps.size(), w.trace.steps.size());
  EXPECT_EQ(trace_to_json(back), trace_to_json(w.trace));

  EGraphWork fresh;
  fresh.start = testing::fig6_graph();
  fresh.meta = add_graph(fresh.eg, fresh.start);
  fresh.eg.rebuild();
  replay_trace(fresh.eg, s.rules().all(), back);
  EXPECT_EQ(fresh.eg.class_count(), w.eg.class_count());
  EXPECT_EQ(fresh.eg.node_count(), w.eg.node_count());
  EXPECT_EQ(min_term(fresh, ExtractMode::Min), min_term(w, ExtractMode::Min));
  EXPECT_EQ(min_term(fresh, ExtractMode::Max), min_term(w, ExtractMode::Max));
  EXPECT_EQ(min_term(fresh, ExtractMode::Min),
            "(graph_out (add I1 (transpose (add I2 I3) perm=[1,0])))");
}

TEST(TraceJson, BadFieldsNameTheirPath) {
  nlohmann::json j = {{"iteration", 1}, {"steps", {{{"step", 0}}}}};
  try {
    trace_from_json(j, "s.json", "egraph.trace.");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("egraph.trace.steps[0]: missing field"), std::string::npos)
        << e.what();
  }
}

TEST(TraceJson, AnUnknownOpNamesItsPath) {
  Session s;
  fig6_session(s);
  nlohmann::json j = trace_to_json(s.egraph().trace);
  size_t k = 0;
  while (!j["steps"][k].contains("node")) ++k;
  j["steps"][k]["node"]["op"] = "no_such_op";
  try {
    trace_from_json(j, "s.json", "egraph.trace.");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("egraph.trace.steps[{}].node.op", k)),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("no_such_op"), std::string::npos) << e.what();
  }
}

TEST(SessionFile, OpenReplaysToTheSameEGraphAndVariants) {
  Session s;
  fig6_session(s);
  std::string text = session_to_json(s).dump();

  Session back;
  std::vector<std::string> warnings =
      session_from_json(back, parse_json_text(text, "s.json"), "s.json");
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(back.egraph().eg.class_count(), s.egraph().eg.class_count());
  EXPECT_EQ(back.egraph().eg.node_count(), s.egraph().eg.node_count());
  EXPECT_EQ(back.egraph().trace.steps.size(), s.egraph().trace.steps.size());
  EXPECT_EQ(back.variant_names(), s.variant_names());
  for (const auto& name : s.variant_names()) {
    EXPECT_EQ(graph_to_json(back.variant(name)), graph_to_json(s.variant(name))) << name;
    EXPECT_EQ(back.variant_info(name).trace_length, s.variant_info(name).trace_length);
  }
  // min was extracted after one step, before saturation, and is that again.
  EXPECT_LT(s.variant_info("min").trace_length, s.egraph().trace.steps.size());
  EXPECT_EQ(back.rules().enabled_flags(), s.rules().enabled_flags());
  EXPECT_EQ(session_to_json(back), session_to_json(s));
}

TEST(SessionFile, AttachedBackendsComeBack) {
  Session s;
  s.backends().attach("w", {"python3", "worker.py"}, 7.5, {{"level", "O2"}});
  Session back;
  session_from_json(back, session_to_json(s), "s.json");
  EXPECT_EQ(back.backends().attached(), s.backends().attached());
  Session other;
  other.adopt(std::move(back));
  ASSERT_EQ(other.backends().attached().size(), 1u);
  EXPECT_EQ(other.backends().attached()[0].timeout_s, 7.5);
}

TEST(SessionFile, FixedInputsAndTheInputRangeComeBack) {
  Session s;
  fig6_session(s);
  s.input_plan() = *parse_input_range("-5..7");
  Tensor x = Tensor::from_doubles(DType::f32, {2}, {1.5, -0.25});
  s.input_plan().fixed["x"] = x;
  Session back;
  session_from_json(back, session_to_json(s), "s.json");
  Session opened;
  opened.adopt(std::move(back));
  EXPECT_EQ(opened.input_plan().str(), s.input_plan().str());
  ASSERT_EQ(opened.input_plan().fixed.count("x"), 1u);
  EXPECT_EQ(opened.input_plan().fixed.at("x").get(1), -0.25);
  EXPECT_EQ(opened.input_plan().fixed.at("x").type(), x.type());

  // The default plan writes nothing, so files stay as they were before `input` existed.
  Session plain;
  fig6_session(plain);
  EXPECT_FALSE(session_to_json(plain).contains("inputs"));
}

TEST(SessionFile, BadFixedInputsNameTheirPath) {
  Session s;
  fig6_session(s);
  s.input_plan().fixed["x"] = Tensor::from_doubles(DType::f32, {1}, {1});
  nlohmann::json j = session_to_json(s);
  j["inputs"]["fixed"]["x"] = "not*base64";
  Session back;
  try {
    session_from_json(back, j, "s.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("s.json: inputs.fixed.x: "), std::string::npos)
        << e.what();
  }
  j["inputs"]["fixed"] = nlohmann::json::object();
  j["inputs"]["range"] = "widest";
  try {
    session_from_json(back, j, "s.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "s.json: inputs.range: unknown input range 'widest'");
  }
}

TEST(SessionFile, ChangedVariantGraphIsAWarning) {
  Session s;
  fig6_session(s);
  nlohmann::json j = session_to_json(s);
  for (auto& v : j["variants"])
    if (v["name"] == "max") v["graph"] = graph_to_json(testing::fig6_graph());
  Session back;
  std::vector<std::string> warnings = session_from_json(back, j, "s.json");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("variant 'max'"), std::string::npos);
}

TEST(SessionFile, TruncatedFileIsALocatedError) {
  Session s;
  fig6_session(s);
  std::string text = session_to_json(s).dump(1);
  auto dir = std::filesystem::temp_directory_path() / "retort_session_file_test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "cut.json").string();
  {
    std::ofstream out(path, std::ios::trunc);
    out << text.substr(0, text.size() / 2);
  }
  Session fresh;
  try {
    load_session_file(fresh, path);
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("invalid JSON"), std::string::npos) << what;
  }
  std::filesystem::remove_all(dir);
}

TEST(SessionFile, ANumberOutOfRangeIsALocatedError) {
  auto dir = std::filesystem::temp_directory_path() / "retort_session_file_test_range";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "big.json").string();
  std::ofstream(path, std::ios::trunc) << "{\"format\": \"retort-session\",\n \"seed\": -1e400}";
  Session fresh;
  try {
    load_session_file(fresh, path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ":2:10: invalid JSON: number overflow parsing '-1e400'");
  }
  std::filesystem::remove_all(dir);
}

TEST(SessionFile, BadStepNamesTheStep) {
  Session s;
  fig6_session(s);
  nlohmann::json j = session_to_json(s);
  j["egraph"]["trace"]["steps"][1]["eclass"] = 100000;
  Session fresh;
  try {
    session_from_json(fresh, j, "s.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("egraph.trace"), std::string::npos) << what;
    EXPECT_NE(what.find("trace step 1"), std::string::npos) << what;
  }
  j = session_to_json(s);
  j["variants"][0]["extraction"]["mode"] = "biggest";
  EXPECT_THROW(session_from_json(fresh, j, "s.json"), Error);
}

}  // namespace
}  // namespace retort
