#include "option_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>

#include <limits>

QString optionToolTip(const libreyolo::OptionSpec& spec) {
    return QObject::tr("%1\nvalue: %2\ndefault: %3")
        .arg(QString::fromStdString(spec.help), QString::fromStdString(spec.value_text()),
             QString::fromStdString(libreyolo::train_option_defaults(spec)));
}

OptionEditor makeOptionEditor(const libreyolo::OptionSpec& spec, QWidget* parent) {
    OptionEditor e;
    switch (spec.type) {
        case libreyolo::OptionType::Bool: {
            auto* box = new QCheckBox(parent);
            e.widget = box;
            e.text = [box] { return QString(box->isChecked() ? "true" : "false"); };
            e.setText = [box](const QString& t) { box->setChecked(t == "true"); };
            break;
        }
        case libreyolo::OptionType::Int: {
            auto* spin = new QSpinBox(parent);
            const int huge = std::numeric_limits<int>::max() / 2;
            spin->setRange(spec.min ? static_cast<int>(*spec.min + (spec.min_open ? 1 : 0)) : -huge,
                           spec.max ? static_cast<int>(*spec.max - (spec.max_open ? 1 : 0)) : huge);
            e.widget = spin;
            e.text = [spin] { return QString::number(spin->value()); };
            e.setText = [spin](const QString& t) { spin->setValue(t.toInt()); };
            break;
        }
        case libreyolo::OptionType::Choice: {
            auto* combo = new QComboBox(parent);
            for (const std::string& c : spec.choices) combo->addItem(QString::fromStdString(c));
            e.widget = combo;
            e.text = [combo] { return combo->currentText(); };
            e.setText = [combo](const QString& t) { combo->setCurrentText(t); };
            break;
        }
        case libreyolo::OptionType::Float:
        case libreyolo::OptionType::FloatPair:
        case libreyolo::OptionType::Text: {
            auto* line = new QLineEdit(parent);
            e.widget = line;
            e.text = [line] { return line->text().trimmed(); };
            e.setText = [line](const QString& t) { line->setText(t); };
            break;
        }
    }
    e.widget->setObjectName(QString::fromStdString(spec.key));
    return e;
}
