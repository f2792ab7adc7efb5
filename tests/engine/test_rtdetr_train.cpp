// RT-DETR training on the CPU: LibreYOLO's RT-DETR defaults, its parameter groups and learning
// rates, the loader's targets as DETR ground truth, a short run that lowers the loss and writes
// results.csv with RT-DETR's columns and checkpoints that load back as RT-DETR, and multi-scale.
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "libreyolo/synth.h"
#include "libreyolo/train.h"
#include "models/rtdetr/recipe.h"
#include "models/rtdetr/rtdetr.h"

using namespace libreyolo;
namespace fs = std::filesystem;

class TestRtdetrTrain : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string data_;

    TrainOptions options(const char* name, int epochs) const {
        TrainOptions o = train_defaults("rtdetr-r18");
        o.pretrained = false;
        o.data = data_;
        o.epochs = epochs;
        o.batch = 4;
        o.imgsz = 160;  // three maps of 20², 10², 5² cells: enough for 300 queries
        o.workers = 2;
        o.device = "cpu";
        o.eval_interval = 100;  // validate after the last epoch only
        o.project = dir_.filePath("runs").toStdString();
        o.name = name;
        return o;
    }

private Q_SLOTS:
    void initTestCase() {
        SynthOptions s;
        s.out = dir_.filePath("shapes").toStdString();
        s.n = 20;
        s.imgsz = 160;
        s.seed = 5;
        s.max_objects = 4;
        data_ = render_synthetic_dataset(s).data_yaml;
    }

    void defaultsAreLibreYOLOsRtdetrConfig() {
        const TrainOptions o = train_defaults("rtdetr-r18");
        QCOMPARE(o.model, std::string("rtdetr-r18"));
        QCOMPARE(o.optimizer, libreyolo::Optimizer::AdamW);
        QCOMPARE(o.lr0, 1e-4);
        QCOMPARE(o.lr_backbone, 5e-6);
        QCOMPARE(o.lrf, 1.0);
        QCOMPARE(o.weight_decay, 1e-4);
        QCOMPARE(o.clip_max_norm, 0.1);
        QCOMPARE(o.epochs, 72);
        QCOMPARE(o.batch, 4);
        QCOMPARE(o.warmup_epochs, 0);
        QCOMPARE(o.mosaic, 0.0f);
        const TrainOptions yolo = train_defaults("yolo9-t");
        QCOMPARE(yolo.optimizer, libreyolo::Optimizer::SGD);
        QCOMPARE(yolo.clip_max_norm, 0.0);
        QVERIFY_THROWS_EXCEPTION(UnknownModel, train_defaults("rtdetr-x9"));
    }

    void parameterGroupsFollowLibreYOLOsRules() {
        auto net = std::make_shared<models::rtdetr::RTDETRModelImpl>("r18", 3);
        models::rtdetr::RTDETRRecipe recipe(net, 3);
        const TrainOptions o = train_defaults("rtdetr-r18");
        auto optimizer = recipe.make_optimizer(o);
        QCOMPARE(optimizer->param_groups().size(), std::size_t(4));
        QCOMPARE(recipe.lr_ratios(), (std::vector<double>{0.05, 0.05, 1, 1}));
        const auto& groups = optimizer->param_groups();
        QCOMPARE(groups[0].options().get_lr(), 5e-6);
        QCOMPARE(groups[3].options().get_lr(), 1e-4);
        const auto decay = [&](std::size_t g) {
            return static_cast<const torch::optim::AdamWOptions&>(groups[g].options()).weight_decay();
        };
        QCOMPARE(decay(0), 0.0);   // backbone norms
        QCOMPARE(decay(1), 1e-4);  // the rest of the backbone
        QCOMPARE(decay(2), 0.0);   // encoder/decoder norms and biases
        QCOMPARE(decay(3), 1e-4);
        std::size_t total = 0;
        for (const auto& g : groups) total += g.params().size();
        QCOMPARE(total, net->parameters().size());
        // The first group holds the backbone's BatchNorm weights, the second its convolutions.
        QVERIFY(groups[0].params()[0].is_same(net->backbone->named_parameters()["conv1.conv1_1.norm.weight"]));
        QVERIFY(groups[1].params()[0].is_same(net->backbone->named_parameters()["conv1.conv1_1.conv.weight"]));
    }

    void loaderTargetsBecomeDetrGroundTruth() {
        // Two images: two boxes and a zero (padding) row; none at all.
        const torch::Tensor targets =
            torch::tensor({2.f, 0.1f, 0.2f, 0.5f, 0.6f, 0.f, 0.5f, 0.5f, 0.7f, 0.9f, 0.f, 0.f, 0.f, 0.f, 0.f,
                           0.f, 0.f,  0.f,  0.f,  0.f,  0.f, 0.f,  0.f,  0.f,  0.f,  0.f, 0.f, 0.f, 0.f, 0.f})
                .view({2, 3, 5});
        const auto truth = models::detr_targets(targets);
        QCOMPARE(truth.size(), std::size_t(2));
        QCOMPARE(truth[0].labels.numel(), int64_t(2));
        QCOMPARE(truth[0].labels[0].item<int64_t>(), int64_t(2));
        QVERIFY(torch::allclose(truth[0].boxes[0], torch::tensor({0.3f, 0.4f, 0.4f, 0.4f})));
        QVERIFY(torch::allclose(truth[0].boxes[1], torch::tensor({0.6f, 0.7f, 0.2f, 0.4f})));
        QCOMPARE(truth[1].labels.numel(), int64_t(0));
    }

    void shortTrainingLowersTheLoss() {
        std::vector<double> epoch_loss;
        std::vector<std::string> names;
        const TrainResult r = train(options("short", 6), [&](const TrainEvent& e) {
            if (e.kind != TrainEvent::Kind::Epoch) return;
            epoch_loss.push_back(e.loss);
            names = e.loss_names;
        });
        QCOMPARE(r.epochs_run, 6);
        QCOMPARE(names, (std::vector<std::string>{"vfl", "bbox", "giou"}));
        qInfo("epoch loss %.3f -> %.3f", epoch_loss.front(), epoch_loss.back());
        QVERIFY(epoch_loss.back() < 0.8 * epoch_loss.front());

        std::ifstream csv(fs::path(r.save_dir) / "results.csv");
        std::string header;
        std::getline(csv, header);
        for (const char* column : {"train/vfl_loss", "train/bbox_loss", "train/giou_loss", "lr/group3"})
            QVERIFY2(header.find(column) != std::string::npos, column);
        QVERIFY(header.find("train/dfl_loss") == std::string::npos);
        Model trained = Model::load(r.best, "cpu");
        QCOMPARE(trained.info().family, std::string("rtdetr"));
        QCOMPARE(trained.info().size, std::string("r18"));
        QCOMPARE(trained.info().nc, 6);
        PredictOptions po;
        po.imgsz = 160;
        QVERIFY(!trained.predict(fs::path(data_).parent_path().string() + "/images/val", po).empty());
        // Fine-tuning that checkpoint starts from RT-DETR's defaults too.
        QCOMPARE(train_defaults(r.best).optimizer, libreyolo::Optimizer::AdamW);
    }

    void multiScaleTrainsAtSeveralSizes() {
        TrainOptions o = options("multi", 1);
        o.multi_scale = true;
        o.imgsz = 224;  // its smallest size, 160, still has the 300 cells the queries need
        const TrainResult r = train(o);
        QCOMPARE(r.epochs_run, 1);
        QVERIFY(fs::exists(r.last));
    }
};

QTEST_APPLESS_MAIN(TestRtdetrTrain)
#include "test_rtdetr_train.moc"
