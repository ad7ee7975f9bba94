// What a standalone reproducer's requirements.txt pins for a release (core/compare/repro.h), so
// that it runs in a fresh virtual environment years later: every package of the release's own
// environment at the version installed there (for the default release the lock's,
// scripts/backends/locks/<family>.txt; for an older one those of the release's date, as uv
// resolved them with --exclude-newer). A release with no Python environment of its own (ORT runs
// in node, its reproducer on the Python wheel) takes the pins of the declarative table
// scripts/backends/locks/repro_pins.tsv: a numpy of its era for a release built against numpy 1.
#pragma once

#include <map>
#include <string>

#include "core/backend/family.h"

namespace retort {

// Orders "1.9.0" before "1.10.0".
bool version_less(const std::string& a, const std::string& b);

// A requirement's package name, normalized as pip compares them: "NumPy>=1.2" -> "numpy",
// "typing_extensions" -> "typing-extensions".
std::string requirement_package(const std::string& requirement);

// The pins for release `version` of f (empty: its default release) by requirement_package,
// "numpy" -> "numpy==1.26.4"; empty when nothing says any.
std::map<std::string, std::string> release_pins(const FamilyDef& f, const std::string& version);

}  // namespace retort
