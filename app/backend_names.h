// The backends a command names: `--backends ref,ort:O0`, `--backends "ref inductor"`, `all`,
// family names (their default mode) and releases (FAMILY@VERSION[:MODE], installed on first
// use with the installer's progress on the output when the person names them).
#pragma once

#include <string>
#include <vector>

#include "app/output.h"
#include "core/backend/family.h"
#include "core/session/session.h"

namespace retort {

// Splits at commas and white space.
std::vector<std::string> split_backend_words(const std::string& text);

// True when `word` names a backend: one of the session's, `all`, a family or a release.
bool is_backend_word(const Session& s, const std::string& word);

// Who named the backends: the person, in the command they typed, or a file (a findings database,
// a session), whose names never make Retort install anything.
enum class NamedBy { Person, File };

// The backends, in order and without repeats; `all` is ref and the default mode of every family
// whose default release is installed. A release that is not installed is installed first when
// the person named it; named by a file, it is an Error naming `backend install FAMILY@VERSION`.
std::vector<std::string> resolve_backends(Session& s, const std::vector<std::string>& words,
                                          Output& out, NamedBy by = NamedBy::Person);

// Installs FAMILY@VERSION (VERSION empty: the default) unless it is there, printing what the
// installer does; Ctrl-C stops it. Returns false when it was already installed.
bool install_with_progress(Session& s, const FamilyDef& family, const std::string& version,
                           Output& out);

}  // namespace retort
