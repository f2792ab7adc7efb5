// D-FINE and DEIM training on the CPU: LibreYOLO's DFINEConfig / DEIMConfig through train_defaults,
// their parameter groups and learning rates, the flat-cosine schedule and the epoch the strong
// augmentations end, the augmentation pipeline's operations, and a short run of each family that
// lowers the loss and writes results.csv with its columns and checkpoints that load back.
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

#include "libreyolo/model.h"
#include "libreyolo/synth.h"
#include "libreyolo/train.h"
#include "model/model_impl.h"
#include "models/dfine_network/augment.h"
#include "models/dfine_network/recipe.h"
#include "train/schedule.h"

using namespace libreyolo;
using namespace libreyolo::models::dfine_network;
namespace fs = std::filesystem;

namespace {

data::Sample gradient_sample(int w, int h) {
    data::Sample s;
    s.rgb = cv::Mat(h, w, CV_8UC3);
    s.rgb.forEach<cv::Vec3b>([&](cv::Vec3b& p, const int* at) {
        p = cv::Vec3b(static_cast<uint8_t>(at[1] * 255 / w), static_cast<uint8_t>(at[0] * 255 / h), 90);
    });
    s.boxes = {{1, 10, 20, 60, 70}, {0, 100, 30, 150, 110}};
    return s;
}

}  // namespace

class TestDfineTrain : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string data_;

    TrainOptions options(const std::string& model, const char* name, int epochs) const {
        TrainOptions o = train_defaults(model);
        o.pretrained = false;
        o.data = data_;
        o.epochs = epochs;
        o.batch = 4;
        o.imgsz = 256;  // two maps of 16² and 8² cells: enough for the n decoder's 300 queries
        o.workers = 2;
        o.device = "cpu";
        o.warmup_epochs = 1;
        o.close_mosaic = 2;
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
        s.imgsz = 256;
        s.seed = 5;
        s.max_objects = 4;
        data_ = render_synthetic_dataset(s).data_yaml;
    }

    void defaultsAreLibreYOLOsConfigs() {
        const TrainOptions d = train_defaults("dfine-s");
        QCOMPARE(d.model, std::string("dfine-s"));
        QCOMPARE(d.optimizer, libreyolo::Optimizer::AdamW);
        QCOMPARE(d.scheduler, libreyolo::LrScheduler::FlatCosine);
        QCOMPARE(d.lr0, 2e-4);
        QCOMPARE(d.lrf, 0.05);
        QCOMPARE(d.warmup_epochs, 2);
        QCOMPARE(d.warmup_lr_start, 1e-6);
        QCOMPARE(d.close_mosaic, 4);
        QCOMPARE(d.epochs, 132);
        QCOMPARE(d.batch, 16);
        QCOMPARE(d.weight_decay, 1e-4);
        QCOMPARE(d.backbone_lr_mult, 0.5);
        QCOMPARE(d.clip_max_norm, 0.1);
        QCOMPARE(d.mosaic, 0.0f);
        QCOMPARE(d.hsv_prob, 0.0f);
        QVERIFY(d.multi_scale);
        QCOMPARE(d.base_size_repeat, 20);
        QCOMPARE(d.aug_stop_epoch_ratio, 0.85);
        QCOMPARE(d.ema_restart_decay, 0.9999);
        QVERIFY(!train_defaults("dfine-n").multi_scale);  // DFINE_BASE_SIZE_REPEAT n: None
        QCOMPARE(train_defaults("dfine-x").base_size_repeat, 3);

        const TrainOptions e = train_defaults("LibreDEIMm");
        QCOMPARE(e.lr0, 1e-4);
        QCOMPARE(e.close_mosaic, 12);
        QCOMPARE(e.backbone_lr_mult, 0.1);
        QCOMPARE(e.aug_stop_epoch_ratio, 0.91);
        QVERIFY(e.multi_scale);
        QCOMPARE(e.base_size_repeat, 3);
        QCOMPARE(train_defaults("deim-x").backbone_lr_mult, 0.01);
        QCOMPARE(train_defaults("deim-n").backbone_lr_mult, 0.5);
    }

    // LibreYOLO's resolve_aug_stop_epoch at its defaults: D-FINE 112 of 132, DEIM 120.
    void strongAugmentationsEndAtLibreYOLOsEpoch() {
        const auto last_augmented = [](const std::string& model) {
            const TrainOptions o = train_defaults(model);
            auto net = std::dynamic_pointer_cast<DFINENetworkImpl>(Model::create(model, 3, "cpu").impl().net);
            const DFINERecipe recipe(net, model.starts_with("deim") ? Variant::DEIM : Variant::DFINE, 3);
            int last = 0;
            for (int epoch = 1; epoch <= o.epochs; ++epoch)
                if (recipe.augmentation_epoch(epoch, o)) last = epoch;
            return last;
        };
        QCOMPARE(last_augmented("dfine-n"), 112);
        QCOMPARE(last_augmented("deim-n"), 120);
    }

    // FlatCosineScheduler at D-FINE's settings, 10 batches an epoch.
    void flatCosineIsLibreYOLOs() {
        const TrainOptions o = train_defaults("dfine-n");
        const training::Schedule s = training::Schedule::of(o, 10);
        const double lr0 = 2e-4, start = 1e-6, low = 2e-4 * 0.05;
        QCOMPARE(s.lr(0), start);
        QVERIFY(std::abs(s.lr(10) - ((lr0 - start) * 10 / 20 + start)) < 1e-12);
        QCOMPARE(s.lr(20), lr0);
        QCOMPARE(s.lr(700), lr0);
        QCOMPARE(s.lr(1279), lr0);  // the cosine covers the last 4 epochs: 1280 onwards
        QVERIFY(std::abs(s.lr(1300) - (low + 0.5 * (lr0 - low))) < 1e-12);
        QVERIFY(std::abs(s.lr(1320) - low) < 1e-12);
        QCOMPARE(s.beta(500), 0.9);
    }

    void parameterGroupsFollowLibreYOLOsRules() {
        for (const std::string model : {"dfine-n", "deim-n"}) {
            auto net = std::dynamic_pointer_cast<DFINENetworkImpl>(Model::create(model, 3, "cpu").impl().net);
            const bool deim = model.starts_with("deim");
            DFINERecipe recipe(net, deim ? Variant::DEIM : Variant::DFINE, 3);
            const TrainOptions o = train_defaults(model);
            auto optimizer = recipe.make_optimizer(o);
            QCOMPARE(recipe.lr_ratios(), (std::vector<double>{1, 1, 0.5, 0.5}));
            const auto& groups = optimizer->param_groups();
            const auto decay = [&](std::size_t g) {
                return static_cast<const torch::optim::AdamWOptions&>(groups[g].options()).weight_decay();
            };
            QCOMPARE(decay(0), 1e-4);
            QCOMPARE(decay(1), 0.0);
            QCOMPARE(decay(2), 1e-4);
            QCOMPARE(decay(3), 0.0);
            const auto holds = [&](std::size_t g, const torch::Tensor& t) {
                for (const auto& p : groups[g].params())
                    if (p.is_same(t)) return true;
                return false;
            };
            const auto params = net->named_parameters();
            // MultiheadAttention's packed bias takes no decay (LibreYOLO matches "bias" anywhere).
            QVERIFY(holds(1, params["decoder.decoder.layers.0.self_attn.in_proj_bias"]));
            QVERIFY(holds(0, params["decoder.decoder.layers.0.self_attn.in_proj_weight"]));
            QVERIFY(holds(3, params["backbone.stages.0.blocks.0.layers.0.lab.scale"]));
            // D-FINE freezes the stem (DEIM n does not): frozen parameters are in no group.
            std::size_t trainable = 0, total = 0;
            for (const auto& p : net->parameters()) trainable += p.requires_grad() ? 1 : 0;
            for (const auto& g : groups) total += g.params().size();
            QCOMPARE(total, trainable);
            const torch::Tensor stem = params["backbone.stem.stem1.conv.weight"];
            QCOMPARE(stem.requires_grad(), deim);
            QCOMPARE(holds(2, stem), deim);
        }
    }

    void augmentationOperationsKeepTheirInvariants() {
        // Brightness 1 and hue 0 change nothing; a channel permutation only permutes.
        data::Sample s = gradient_sample(200, 150);
        cv::Mat image = s.rgb.clone();
        PhotometricDraw identity;
        identity.brightness = 1.0;
        identity.hue = 0.0;
        photometric_distort(image, identity);
        QCOMPARE(cv::norm(image, s.rgb, cv::NORM_INF), 0.0);
        PhotometricDraw swap;
        swap.permutation = std::array<int, 3>{2, 1, 0};
        photometric_distort(image, swap);
        QCOMPARE(image.at<cv::Vec3b>(40, 100)[0], s.rgb.at<cv::Vec3b>(40, 100)[2]);

        // Zoom-out: the image at its offset on a black canvas, boxes moved with it.
        const data::Sample z = zoom_out(s, 2.0, 0.5, 0.25);
        QCOMPARE(z.rgb.cols, 400);
        QCOMPARE(z.rgb.rows, 300);
        QCOMPARE(z.boxes[0].x1, 110.0f);
        QCOMPARE(z.boxes[0].y1, 57.0f);  // int(150 · 0.25) = 37
        QCOMPARE(z.rgb.at<cv::Vec3b>(0, 0), cv::Vec3b(0, 0, 0));
        QCOMPARE(z.rgb.at<cv::Vec3b>(57, 110), s.rgb.at<cv::Vec3b>(20, 10));

        // IoU crop: whenever it crops, a kept box lies inside the window.
        data::Rng rng(3);
        int cropped = 0;
        for (int k = 0; k < 50; ++k) {
            data::Sample c = gradient_sample(200, 150);
            if (!iou_crop(c, rng)) continue;
            ++cropped;
            sanitize(c);
            for (const auto& b : c.boxes)
                QVERIFY(b.x1 >= 0 && b.y1 >= 0 && b.x2 <= c.rgb.cols && b.y2 <= c.rgb.rows && b.x2 - b.x1 >= 1);
        }
        QVERIFY(cropped > 10 && cropped < 50);  // threshold 1 keeps the image a seventh of the time
    }

    void shortTrainingLowersTheLoss_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("dfine-n") << QString("dfine-n");
        QTest::newRow("deim-n") << QString("deim-n");
    }
    void shortTrainingLowersTheLoss() {
        QFETCH(QString, model);
        const std::string m = model.toStdString();
        const bool deim = m.starts_with("deim");
        TrainOptions o = options(m, m.c_str(), 6);
        o.lr0 = 1e-3;           // a few epochs from random weights
        o.multi_scale = false;  // 0.75 × 256 would leave the n decoder too few cells
        std::vector<double> epoch_loss, epoch_bbox;
        std::vector<std::string> names;
        const TrainResult r = train(o, [&](const TrainEvent& e) {
            if (e.kind != TrainEvent::Kind::Epoch) return;
            epoch_loss.push_back(e.loss);
            epoch_bbox.push_back(e.loss_parts.at(1));
            names = e.loss_names;
        });
        QCOMPARE(r.epochs_run, 6);
        QCOMPARE(names, (std::vector<std::string>{deim ? "mal" : "vfl", "bbox", "giou", "fgl", "ddf"}));
        qInfo("%s epoch loss %.3f -> %.3f, L1 %.3f -> %.3f", m.c_str(), epoch_loss.front(), epoch_loss.back(),
              epoch_bbox.front(), epoch_bbox.back());
        // A DETR's class term rises while its matches improve (varifocal / MAL aim at the IoU), so the
        // boxes' L1 term tells learning apart; the total falls too.
        QVERIFY(epoch_bbox.back() < 0.8 * epoch_bbox.front());
        QVERIFY(epoch_loss.back() < epoch_loss.front());

        std::ifstream csv(fs::path(r.save_dir) / "results.csv");
        std::string header;
        std::getline(csv, header);
        for (const char* column : {deim ? "train/mal_loss" : "train/vfl_loss", "train/bbox_loss", "train/fgl_loss",
                                   "train/ddf_loss", "lr/group3"})
            QVERIFY2(header.find(column) != std::string::npos, column);
        Model trained = Model::load(r.best, "cpu");
        QCOMPARE(trained.info().family, std::string(deim ? "deim" : "dfine"));
        QCOMPARE(trained.info().size, std::string("n"));
        QCOMPARE(trained.info().nc, 6);
        PredictOptions po;
        po.imgsz = 256;
        QVERIFY(!trained.predict(fs::path(data_).parent_path().string() + "/images/val", po).empty());
        QCOMPARE(train_defaults(r.best).scheduler, libreyolo::LrScheduler::FlatCosine);
    }
};

QTEST_GUILESS_MAIN(TestDfineTrain)
#include "test_dfine_train.moc"
