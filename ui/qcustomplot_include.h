#pragma once
// qcustomplot.h is written with Qt's keyword macros (signals, slots, emit, foreach), which this
// project turns off (QT_NO_KEYWORDS: `slots` collides with the torch headers). Map them to their
// Q_ forms around the include only.
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
