#pragma once
// The engine has one log sink for the whole process: the studio installs it once, here, and every
// part that shows the engine's lines listens to lineLogged(). The engine logs from its own threads,
// under its sink's lock: the router only posts each line to its own (the GUI) thread and emits it
// there, so no receiver runs on an engine thread or under that lock. Every line also goes to
// stderr, as it would without the studio's sink.
#include <QObject>
#include <QString>

#include "engine_metatypes.h"

class LogRouter : public QObject {
    Q_OBJECT
public:
    // The process's router, created and installed on first use (from the GUI thread); it lives as
    // long as the application object.
    static LogRouter* instance();
    ~LogRouter() override;

    // A line as the studio shows it: "[source] message", "[source] warning: message".
    static QString text(libreyolo::LogLevel level, const QString& source, const QString& message);

Q_SIGNALS:
    void lineLogged(libreyolo::LogLevel level, const QString& source, const QString& message);

private:
    explicit LogRouter(QObject* parent);
};
