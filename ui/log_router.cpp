#include "log_router.h"

#include <QCoreApplication>
#include <QPointer>

#include <cstdio>

LogRouter* LogRouter::instance() {
    static QPointer<LogRouter> router;
    if (!router) router = new LogRouter(QCoreApplication::instance());
    return router;
}

LogRouter::LogRouter(QObject* parent) : QObject(parent) {
    qRegisterMetaType<libreyolo::LogLevel>();
    libreyolo::set_log_callback(
        [this](libreyolo::LogLevel level, const std::string& source, const std::string& message) {
            // The engine's own format, for a studio started from a terminal.
            if (level >= libreyolo::LogLevel::Warning)
                std::fprintf(stderr, "[%s] %s: %s\n", source.c_str(), libreyolo::to_string(level), message.c_str());
            else
                std::fprintf(stderr, "[%s] %s\n", source.c_str(), message.c_str());
            QMetaObject::invokeMethod(
                this,
                [this, level, source = QString::fromStdString(source), message = QString::fromStdString(message)] {
                    Q_EMIT lineLogged(level, source, message);
                },
                Qt::QueuedConnection);
        });
}

LogRouter::~LogRouter() {
    // Waits for a line being logged (the engine holds its lock meanwhile); lines posted and not yet
    // emitted go with this object.
    libreyolo::set_log_callback({});
}

QString LogRouter::text(libreyolo::LogLevel level, const QString& source, const QString& message) {
    return QString("[%1] %2%3")
        .arg(source, level >= libreyolo::LogLevel::Warning ? tr("warning: ") : QString(), message);
}
