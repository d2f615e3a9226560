#pragma once
// Status and Expected<T> for core (defined in the runtime, which core links, so both share them).
#include "core/runtime/status.h"
