#pragma once
// Status and Expected<T>: the two ways animpack reports bad input (STYLE item 7).
// Standard library only: the runtime's public API (animpack/pack.h) and the rest of animpack share them.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace animpack {

/// A user-facing error: one message that names the input and the broken rule.
struct Error {
  std::string message;
};

/// Success, or an Error saying what was wrong with the input.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : m_error(std::move(error.message)), m_ok(false) {}  // NOLINT: implicit by design

  static Status ok() { return {}; }
  bool isOk() const { return m_ok; }
  explicit operator bool() const { return m_ok; }
  /// The error message; empty when ok.
  const std::string& message() const { return m_error; }

 private:
  std::string m_error;
  bool m_ok = true;
};

/// Either a value or an Error (C++23's std::expected, reduced to what animpack needs).
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : m_state(std::move(value)) {}                                        // NOLINT: implicit by design
  Expected(Error error) : m_state(std::move(error)) {}                                    // NOLINT: implicit by design
  Expected(Status status) : m_state(Error{status.message()}) { assert(!status.isOk()); }  // NOLINT

  bool hasValue() const { return std::holds_alternative<T>(m_state); }
  explicit operator bool() const { return hasValue(); }

  T& value() & { return std::get<T>(m_state); }
  const T& value() const& { return std::get<T>(m_state); }
  T&& value() && { return std::get<T>(std::move(m_state)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The error message; only valid when !hasValue().
  const std::string& message() const { return std::get<Error>(m_state).message; }
  Status status() const { return hasValue() ? Status::ok() : Status(Error{message()}); }

 private:
  std::variant<T, Error> m_state;
};

}  // namespace animpack
