// The training options schema: text round trips, aliases, bounds and choices that name the key, the
// defaults it shows per family, the saved train_config.yaml, and docs/options.md kept equal to it.
#include <QtTest/QtTest>

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

#include "libreyolo/errors.h"
#include "libreyolo/options.h"
#include "support/test_helpers.h"

using namespace libreyolo;

namespace {

TrainOptions with(const std::vector<std::pair<std::string, std::string>>& values) {
    TrainOptions o;
    o.data = "data.yaml";
    set_train_options(o, values);
    return o;
}

std::string check_error(const std::vector<std::pair<std::string, std::string>>& values) {
    return testing::error_of([&] { check_train_options(with(values)); });
}

}  // namespace

class TestOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyKeyIsListedOnceAndReadsBackWhatItWrites() {
        std::set<std::string> seen;
        const TrainOptions defaults = train_defaults("yolox-s");
        for (const OptionSpec& spec : train_option_schema()) {
            QVERIFY2(seen.insert(spec.key).second, spec.key.c_str());
            for (const std::string& alias : spec.aliases) QVERIFY2(seen.insert(alias).second, alias.c_str());
            QVERIFY2(!spec.help.empty(), spec.key.c_str());
            QCOMPARE(find_train_option(spec.key), &spec);
            TrainOptions o;
            spec.set(o, spec.get(defaults));
            QCOMPARE(spec.get(o), spec.get(defaults));
        }
        QCOMPARE(find_train_option("min_lr_ratio")->key, std::string("lrf"));
        QVERIFY(find_train_option("lr") == nullptr);
    }

    void valuesParseByTypeAndAliasesSetTheSameField() {
        const TrainOptions o = with({{"epochs", "7"},
                                     {"min_lr_ratio", "0.05"},
                                     {"optimizer", "adamw"},
                                     {"scheduler", "flat_cosine"},
                                     {"mosaic_scale", "[0.1, 2]"},
                                     {"amp", "false"},
                                     {"mosaic_prob", "0.25"}});
        QCOMPARE(o.epochs, 7);
        QCOMPARE(o.lrf, 0.05);
        QCOMPARE(o.optimizer, Optimizer::AdamW);
        QCOMPARE(o.scheduler, LrScheduler::FlatCosine);
        QCOMPARE(o.mosaic_scale[0], 0.1f);
        QCOMPARE(o.mosaic_scale[1], 2.0f);
        QVERIFY(!o.amp);
        QCOMPARE(o.mosaic, 0.25f);
        QCOMPARE(find_train_option("optimizer")->get(o), std::string("AdamW"));
        QCOMPARE(find_train_option("lr0")->get(o), std::string("0.01"));
    }

    void wrongTextNamesTheKey() {
        const auto error = [](const std::string& key, const std::string& text) {
            return testing::error_of([&] { with({{key, text}}); });
        };
        QVERIFY(error("epochs", "ten").find("epochs=ten") != std::string::npos);
        QVERIFY(error("lr0", "0.01x").find("lr0=0.01x") != std::string::npos);
        QVERIFY(error("amp", "maybe").find("amp=maybe") != std::string::npos);
        QVERIFY(error("mosaic_scale", "0.5").find("low,high") != std::string::npos);
        const std::string lion = error("optimizer", "Lion");
        QVERIFY(lion.find("'Lion'") != std::string::npos && lion.find("SGD, Adam, AdamW") != std::string::npos);
        QVERIFY(error("scheduler", "flat_cosin").find("did you mean 'flat_cosine'") != std::string::npos);
        QVERIFY(error("epoch", "3").find("did you mean 'epochs'") != std::string::npos);
        QVERIFY(testing::error_of([] {
                    with({{"lrf", "0.1"}, {"min_lr_ratio", "0.1"}});
                }).find("given twice") != std::string::npos);
    }

    void boundsNameTheKeyAndWhatItMayBe() {
        QCOMPARE(check_error({}), std::string());
        QVERIFY(check_error({{"epochs", "0"}}).find("epochs=0: must be an integer >= 1") != std::string::npos);
        QVERIFY(check_error({{"mosaic", "1.5"}}).find("mosaic=1.5: must be a number in [0, 1]") != std::string::npos);
        QVERIFY(check_error({{"ema_decay", "1"}}).find("ema_decay=1: must be a number in (0, 1)") != std::string::npos);
        QVERIFY(check_error({{"lr0", "0"}}).find("lr0=0: must be a number > 0") != std::string::npos);
        QVERIFY(check_error({{"mixup_scale", "2,1"}}).find("mixup_scale=2,1: needs low <= high") != std::string::npos);
        QVERIFY(check_error({{"imgsz", "100"}}).find("imgsz") != std::string::npos);
        QVERIFY(check_error({{"data", ""}}).find("data") != std::string::npos);
        QCOMPARE(check_error({{"data", ""}, {"resume", "true"}}), std::string());
    }

    void defaultsShowEveryFamilysValue() {
        QCOMPARE(train_option_defaults(*find_train_option("imgsz")), std::string("640"));
        QCOMPARE(train_option_defaults(*find_train_option("model")), std::string("yolo9-t"));
        // YOLOv9 and YOLOX share SGD; the DETR line AdamW: the value most families share leads.
        const std::string optimizer = train_option_defaults(*find_train_option("optimizer"));
        QCOMPARE(optimizer, std::string("AdamW; yolo9, yolox SGD"));
        // Only the families it acts on, sizes that differ listed after their family's value.
        const std::string mult = train_option_defaults(*find_train_option("backbone_lr_mult"));
        QCOMPARE(mult, std::string("0.5; deim m 0.1, l 0.05, x 0.01"));
        QCOMPARE(train_option_defaults(*find_train_option("lr_backbone")), std::string("5e-06"));
    }

    void helpAndTableListEveryKey() {
        const std::string help = train_options_help(), table = train_options_markdown();
        for (const OptionSpec& spec : train_option_schema()) {
            QVERIFY2(help.find("  " + spec.key + "=") != std::string::npos, spec.key.c_str());
            QVERIFY2(table.find("| `" + spec.key + "`") != std::string::npos, spec.key.c_str());
        }
        QVERIFY(help.find("--cuda-graph") != std::string::npos);
        QVERIFY(help.find("(min_lr_ratio=F too)") != std::string::npos);
    }

    // docs/options.md holds the table between two markers; it must be what the schema says now.
    void docsTableIsTheSchemas() {
        std::ifstream in(std::string(LIBREYOLO_SOURCE_DIR) + "/docs/options.md");
        QVERIFY(in);
        std::stringstream text;
        text << in.rdbuf();
        const std::string doc = text.str(), begin = "<!-- options table: begin -->\n",
                          end = "<!-- options table: end -->";
        const auto a = doc.find(begin), b = doc.find(end);
        QVERIFY(a != std::string::npos && b != std::string::npos);
        QVERIFY2(doc.substr(a + begin.size(), b - a - begin.size()) == train_options_markdown(),
                 "docs/options.md differs from the schema: regenerate it with `libreyolo cfg --markdown`");
    }

    void savedConfigIsYamlWithEveryKey() {
        TrainOptions o = train_defaults("yolox-s");
        o.data = "data.yaml";
        o.name = "123";  // a name YAML would read as a number stays text
        const YAML::Node y = YAML::Load(train_options_yaml(o));
        QCOMPARE(y.size(), train_option_schema().size());
        QCOMPARE(y["lr0"].as<double>(), o.lr0);
        QCOMPARE(y["scheduler"].as<std::string>(), std::string("yoloxwarmcos"));
        QCOMPARE(y["mosaic_scale"][1].as<float>(), 2.0f);
        QCOMPARE(y["amp"].as<bool>(), true);
        QCOMPARE(y["name"].as<std::string>(), std::string("123"));
        QVERIFY(y["name"].Tag() == "!");  // quoted
        // LibreYOLO's names where it spells a key otherwise, so that its load_train_cfg reads the file.
        QCOMPARE(y["min_lr_ratio"].as<double>(), o.lrf);
        QCOMPARE(y["no_aug_epochs"].as<int>(), o.close_mosaic);
        QVERIFY(!y["lrf"] && !y["mosaic"]);
        for (const OptionSpec& spec : train_option_schema()) {
            const std::string key = spec.libreyolo_key.empty() ? spec.key : spec.libreyolo_key;
            QVERIFY2(y[key], key.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestOptions)
#include "test_options.moc"
