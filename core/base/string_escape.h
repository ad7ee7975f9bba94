// The escapes that quoted strings take in Retort's languages (.rtg attribute strings, rule-file
// strings): one table, so both read the same text and reject the same mistakes alike.
#pragma once

#include <optional>
#include <string>

namespace retort {

// The character `\e` stands for: \" \\ \n \t; nullopt for any other e.
std::optional<char> unescape_char(char e);
// "unknown escape '\q' (known: \" \\ \n \t)", with a control byte shown as \xNN.
std::string unknown_escape_message(char e);
// c itself when printable ASCII, else \xNN: for error messages about one character.
std::string printable_char(char c);

}  // namespace retort
