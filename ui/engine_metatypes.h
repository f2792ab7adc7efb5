#pragma once
// Engine types that cross threads in queued signals: declared once, before any header uses them
// in a signal or slot.
#include <QMetaType>

#include <vector>

#include "libreyolo/log.h"
#include "libreyolo/model.h"
#include "libreyolo/results.h"
#include "libreyolo/train.h"

Q_DECLARE_METATYPE(libreyolo::LogLevel)
Q_DECLARE_METATYPE(libreyolo::Result)
Q_DECLARE_METATYPE(libreyolo::PredictOptions)
Q_DECLARE_METATYPE(libreyolo::TrainOptions)
Q_DECLARE_METATYPE(libreyolo::TrainEvent)
Q_DECLARE_METATYPE(libreyolo::TrainingGraphStatus)
Q_DECLARE_METATYPE(libreyolo::GraphInfo)  // std::vector of it: Qt declares containers itself
