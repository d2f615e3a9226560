#pragma once
// The runtime's Status and Expected are public (core/runtime/include/animpack/status.h).
#include "animpack/status.h"
