<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="it_IT">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../ui/main_window.cpp" line="21"/>
        <source>LibreYOLO Studio</source>
        <translation>LibreYOLO Studio</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="35"/>
        <source>Predict</source>
        <translation>Predizione</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="36"/>
        <source>Train</source>
        <translation>Addestramento</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="39"/>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="40"/>
        <source>&amp;Open image…</source>
        <translation>&amp;Apri immagine…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="41"/>
        <source>&amp;Quit</source>
        <translation>&amp;Esci</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="43"/>
        <source>loading model…</source>
        <translation>caricamento del modello…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="76"/>
        <source>predicting %1…</source>
        <translation>predizione di %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="83"/>
        <source>Open image</source>
        <translation>Apri immagine</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="83"/>
        <source>Images (*.png *.jpg *.jpeg *.bmp *.webp)</source>
        <translation>Immagini (*.png *.jpg *.jpeg *.bmp *.webp)</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="59"/>
        <source>%n detection(s), %1 ms</source>
        <translation>
            <numerusform>%n rilevazione, %1 ms</numerusform>
            <numerusform>%n rilevazioni, %1 ms</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PredictControls</name>
    <message>
        <location filename="../ui/predict_controls.cpp" line="26"/>
        <source>model&apos;s</source>
        <translation>del modello</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="30"/>
        <source>off</source>
        <translation>spento</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="31"/>
        <source>on</source>
        <translation>acceso</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="32"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="34"/>
        <source>Replay the network as a CUDA graph: on captures each new input shape, auto captures when a shape comes again (CUDA devices only)</source>
        <translation>Riproduce la rete come grafo CUDA: acceso cattura ogni nuova forma di input, auto cattura quando una forma si ripete (solo dispositivi CUDA)</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="41"/>
        <source>conf</source>
        <translation>conf</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="41"/>
        <source>iou</source>
        <translation>iou</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="41"/>
        <source>imgsz</source>
        <translation>imgsz</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="41"/>
        <source>CUDA graph</source>
        <translation>Grafo CUDA</translation>
    </message>
</context>
<context>
    <name>PredictWorker</name>
    <message>
        <location filename="../ui/predict_worker.cpp" line="16"/>
        <source> (random weights: detections are meaningless)</source>
        <translation> (pesi casuali: le rilevazioni non hanno significato)</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="19"/>
        <source>Cannot load model %1: %2</source>
        <translation>Impossibile caricare il modello %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="25"/>
        <source>No model is loaded</source>
        <translation>Nessun modello caricato</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="32"/>
        <source>Cannot read image %1: %2</source>
        <translation>Impossibile leggere l&apos;immagine %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="42"/>
        <source>Prediction failed on %1: %2</source>
        <translation>Predizione fallita su %1: %2</translation>
    </message>
</context>
<context>
    <name>PredictionView</name>
    <message>
        <location filename="../ui/prediction_view.cpp" line="26"/>
        <source>Drop an image here</source>
        <translation>Trascina qui un&apos;immagine</translation>
    </message>
</context>
<context>
    <name>TrainPage</name>
    <message>
        <location filename="../ui/train_page.cpp" line="47"/>
        <source>A model name (yolo9-t, -s, -m, -c: from scratch) or a .safetensors file (fine-tune)</source>
        <translation>Un nome di modello (yolo9-t, -s, -m, -c: da zero) o un file .safetensors (fine-tuning)</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="49"/>
        <source>data.yaml</source>
        <translation>data.yaml</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="50"/>
        <source>Browse…</source>
        <translation>Sfoglia…</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="53"/>
        <source>Dataset YAML</source>
        <translation>YAML del dataset</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="53"/>
        <source>YAML (*.yaml *.yml)</source>
        <translation>YAML (*.yaml *.yml)</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="79"/>
        <source>mixed precision (CUDA)</source>
        <translation>precisione mista (CUDA)</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="81"/>
        <source>capture the training step as a CUDA graph</source>
        <translation>cattura lo step di addestramento come grafo CUDA</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="86"/>
        <source>Model</source>
        <translation>Modello</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="87"/>
        <source>Data</source>
        <translation>Dati</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="88"/>
        <source>Epochs</source>
        <translation>Epoche</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="89"/>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="90"/>
        <source>Image size</source>
        <translation>Dimensione immagine</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="91"/>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="92"/>
        <source>Optimizer</source>
        <translation>Ottimizzatore</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="93"/>
        <source>lr0</source>
        <translation>lr0</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="94"/>
        <source>AMP</source>
        <translation>AMP</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="95"/>
        <source>CUDA graph</source>
        <translation>Grafo CUDA</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="96"/>
        <source>Project folder</source>
        <translation>Cartella del progetto</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="97"/>
        <source>Run name</source>
        <translation>Nome dell&apos;esecuzione</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="99"/>
        <source>Start</source>
        <translation>Avvia</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="100"/>
        <source>Stop</source>
        <translation>Ferma</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="101"/>
        <source>Resume</source>
        <translation>Riprendi</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="102"/>
        <source>Ends after the current batch; Resume continues from the last finished epoch</source>
        <translation>Termina dopo il batch corrente; Riprendi continua dall&apos;ultima epoca completata</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="115"/>
        <source>idle</source>
        <translation>inattivo</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="126"/>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="126"/>
        <source>loss</source>
        <translation>loss</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="126"/>
        <source>box</source>
        <translation>box</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="126"/>
        <source>cls</source>
        <translation>cls</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="126"/>
        <source>dfl</source>
        <translation>dfl</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="127"/>
        <source>epoch</source>
        <translation>epoca</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="127"/>
        <source>mAP</source>
        <translation>mAP</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="127"/>
        <source>mAP50</source>
        <translation>mAP50</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="127"/>
        <source>mAP50-95</source>
        <translation>mAP50-95</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="151"/>
        <source>stopped; Resume continues %1</source>
        <translation>fermato; Riprendi continua %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="152"/>
        <source>finished: best mAP50-95 %1, results in %2</source>
        <translation>terminato: miglior mAP50-95 %1, risultati in %2</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="157"/>
        <source>failed: %1</source>
        <translation>non riuscito: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="158"/>
        <source>error: %1</source>
        <translation>errore: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="222"/>
        <source>stopping after this batch…</source>
        <translation>arresto dopo questo batch…</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="230"/>
        <source>starting…</source>
        <translation>avvio…</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="231"/>
        <source>training %1 on %2</source>
        <translation>addestramento di %1 su %2</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="243"/>
        <source>epoch %1/%2, batch %3/%4, loss %5, %6 ms a step, ETA %7:%8</source>
        <translation>epoca %1/%2, batch %3/%4, loss %5, %6 ms per step, fine tra %7:%8</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="258"/>
        <source>epoch %1/%2: loss %3%4, %5 s</source>
        <translation>epoca %1/%2: loss %3%4, %5 s</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="262"/>
        <source>, mAP50 %1, mAP50-95 %2</source>
        <translation>, mAP50 %1, mAP50-95 %2</translation>
    </message>
</context>
<context>
    <name>TrainWorker</name>
    <message>
        <location filename="../ui/train_worker.cpp" line="13"/>
        <source>warning: </source>
        <translation>avviso: </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Model name or .safetensors file.</source>
        <translation type="vanished">Nome del modello o file .safetensors.</translation>
    </message>
    <message>
        <source>auto, cpu, cuda or cuda:N.</source>
        <translation type="vanished">auto, cpu, cuda o cuda:N.</translation>
    </message>
    <message>
        <source>Image to open.</source>
        <translation type="vanished">Immagine da aprire.</translation>
    </message>
    <message>
        <source>Save the window as PNG and quit.</source>
        <translation type="vanished">Salva la finestra come PNG ed esci.</translation>
    </message>
</context>
</TS>
