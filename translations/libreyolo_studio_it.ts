<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="it_IT">
<context>
    <name>GraphTableModel</name>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="42"/>
        <source>%1 graphs + %2 eager</source>
        <translation>%1 grafi + %2 eager</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="43"/>
        <source>whole forward</source>
        <translation>forward intero</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="54"/>
        <source>Key (batch×C×H×W)</source>
        <translation>Chiave (batch×C×H×W)</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="56"/>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="58"/>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="60"/>
        <source>Task</source>
        <translation>Compito</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="62"/>
        <source>Replays</source>
        <translation>Riproduzioni</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="64"/>
        <source>Capture ms</source>
        <translation>Cattura ms</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="66"/>
        <source>Pool MiB</source>
        <translation>Pool MiB</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="68"/>
        <source>Stages</source>
        <translation>Fasi</translation>
    </message>
</context>
<context>
    <name>GraphsPage</name>
    <message>
        <location filename="../ui/graphs_page.cpp" line="26"/>
        <source>Capture…</source>
        <translation>Cattura…</translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="27"/>
        <source>Release</source>
        <translation>Rilascia</translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="36"/>
        <source>Training: no run</source>
        <translation>Addestramento: nessuna esecuzione</translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="38"/>
        <source>Predicting with CUDA graph mode on or auto captures graphs (Predict page); a graph replays the model&apos;s forward for one input key.</source>
        <translation>La predizione con la modalità grafo CUDA on o auto cattura i grafi (pagina Predizione); un grafo riproduce il forward del modello per una chiave di input.</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/graphs_page.cpp" line="59"/>
        <source>%n graph(s), %1 replays, %2 MiB</source>
        <translation>
            <numerusform>%n grafo, %1 riproduzioni, %2 MiB</numerusform>
            <numerusform>%n grafi, %1 riproduzioni, %2 MiB</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="65"/>
        <source>Training: %1</source>
        <translation>Addestramento: %1</translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="74"/>
        <source>Capture a CUDA graph</source>
        <translation>Cattura un grafo CUDA</translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="88"/>
        <source>Image size</source>
        <translation>Dimensione immagine</translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="89"/>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <location filename="../ui/graphs_page.cpp" line="90"/>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
</context>
<context>
    <name>KernelsPage</name>
    <message>
        <location filename="../ui/kernels_page.cpp" line="15"/>
        <source>Slot / implementation</source>
        <translation>Slot / implementazione</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="15"/>
        <source>Provider</source>
        <translation>Provider</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="15"/>
        <source>Available</source>
        <translation>Disponibile</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="15"/>
        <source>Status</source>
        <translation>Stato</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="20"/>
        <source>Refresh</source>
        <translation>Aggiorna</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="33"/>
        <source>Override in effect: %1 · hub kernels: %2</source>
        <translation>Forzatura in vigore: %1 · kernel dall&apos;hub: %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="35"/>
        <source>allowed</source>
        <translation>consentiti</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="35"/>
        <source>off</source>
        <translation>spenti</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="40"/>
        <source>uses %1 — %2</source>
        <translation>usa %1 — %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="46"/>
        <source>yes</source>
        <translation>sì</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="46"/>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="47"/>
        <source>in use</source>
        <translation>in uso</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="48"/>
        <source>passed over: %1</source>
        <translation>scartato: %1</translation>
    </message>
    <message>
        <source>Plugins</source>
        <translation>Plugin</translation>
    </message>
    <message>
        <source>none listed</source>
        <translation>nessuno elencato</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../ui/main_window.cpp" line="45"/>
        <source>LibreYOLO Studio</source>
        <translation>LibreYOLO Studio</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="75"/>
        <source>Predict</source>
        <translation>Predizione</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="76"/>
        <source>Train</source>
        <translation>Addestramento</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="78"/>
        <source>Graphs</source>
        <translation>Grafi</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="81"/>
        <source>Kernels</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="83"/>
        <source>Settings</source>
        <translation>Impostazioni</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="88"/>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="89"/>
        <source>&amp;Open images…</source>
        <translation>&amp;Apri immagini…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="90"/>
        <source>Open &amp;folder…</source>
        <translation>Apri &amp;cartella…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="91"/>
        <source>&amp;Save results…</source>
        <translation>&amp;Salva risultati…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="92"/>
        <source>S&amp;top video</source>
        <translation>&amp;Ferma il video</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="112"/>
        <source>%1: %n frame(s) predicted</source>
        <translation>
            <numerusform>%1: %n fotogramma predetto</numerusform>
            <numerusform>%1: %n fotogrammi predetti</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="118"/>
        <source>moving the model to %1…</source>
        <translation>sposto il modello su %1…</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="151"/>
        <source>%n detection(s) · %1 / %2 / %3 ms pre / inference / post</source>
        <translation>
            <numerusform>%n rilevamento · %1 / %2 / %3 ms pre / inferenza / post</numerusform>
            <numerusform>%n rilevamenti · %1 / %2 / %3 ms pre / inferenza / post</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="155"/>
        <source>frame %1 · %2</source>
        <translation>fotogramma %1 · %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="160"/>
        <source>%1
%n detection(s), %2 ms</source>
        <translation>
            <numerusform>%1
%n rilevamento, %2 ms</numerusform>
            <numerusform>%1
%n rilevamenti, %2 ms</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="170"/>
        <source>playing %1…</source>
        <translation>riproduco %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="203"/>
        <source>No image among %1</source>
        <translation>Nessuna immagine tra %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="224"/>
        <source>Open images or a video</source>
        <translation>Apri immagini o un video</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="225"/>
        <source>Images and videos (*.png *.jpg *.jpeg *.bmp *.webp *.ppm *.mp4 *.avi *.mov *.mkv *.webm)</source>
        <translation>Immagini e video (*.png *.jpg *.jpeg *.bmp *.webp *.ppm *.mp4 *.avi *.mov *.mkv *.webm)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="231"/>
        <source>Open a folder of images</source>
        <translation>Apri una cartella di immagini</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="240"/>
        <source>Cannot create folder %1</source>
        <translation>Impossibile creare la cartella %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="252"/>
        <location filename="../ui/main_window.cpp" line="260"/>
        <source>Cannot write %1: %2</source>
        <translation>Impossibile scrivere %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="266"/>
        <source>Nothing to save yet: predict an image first</source>
        <translation>Ancora niente da salvare: prima fai una predizione</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="269"/>
        <source>Save results into</source>
        <translation>Salva i risultati in</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="277"/>
        <source>Saved %n annotated image(s) and predictions.json to %1</source>
        <translation>
            <numerusform>Salvata %n immagine annotata e predictions.json in %1</numerusform>
            <numerusform>Salvate %n immagini annotate e predictions.json in %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="93"/>
        <source>&amp;Quit</source>
        <translation>&amp;Esci</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="95"/>
        <source>loading model…</source>
        <translation>caricamento del modello…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="70"/>
        <location filename="../ui/main_window.cpp" line="170"/>
        <source>predicting %1…</source>
        <translation>predizione di %1…</translation>
    </message>
</context>
<context>
    <name>PredictControls</name>
    <message>
        <location filename="../ui/predict_controls.cpp" line="27"/>
        <source>model&apos;s</source>
        <translation>del modello</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="31"/>
        <source>off</source>
        <translation>spento</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="32"/>
        <source>on</source>
        <translation>acceso</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="33"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="35"/>
        <source>Replay the network as a CUDA graph: on captures each new input shape, auto captures when a shape comes again (CUDA devices only)</source>
        <translation>Riproduce la rete come grafo CUDA: acceso cattura ogni nuova forma di input, auto cattura quando una forma si ripete (solo dispositivi CUDA)</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="41"/>
        <source>Where the model runs: auto, cpu, cuda or cuda:N</source>
        <translation>Dove gira il modello: auto, cpu, cuda o cuda:N</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="47"/>
        <source>conf</source>
        <translation>conf</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="48"/>
        <source>iou</source>
        <translation>iou</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="49"/>
        <source>imgsz</source>
        <translation>imgsz</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="50"/>
        <source>CUDA graph</source>
        <translation>Grafo CUDA</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="51"/>
        <source>device</source>
        <translation>dispositivo</translation>
    </message>
</context>
<context>
    <name>PredictWorker</name>
    <message>
        <location filename="../ui/predict_worker.cpp" line="28"/>
        <source> (random weights: detections are meaningless)</source>
        <translation> (pesi casuali: le rilevazioni non hanno significato)</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="19"/>
        <source>Cannot load model %1: %2</source>
        <translation>Impossibile caricare il modello %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="38"/>
        <source>Cannot move the model to %1: %2</source>
        <translation>Impossibile spostare il modello su %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="44"/>
        <source>No model is loaded</source>
        <translation>Nessun modello caricato</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="55"/>
        <source>Cannot read image %1: %2</source>
        <translation>Impossibile leggere l&apos;immagine %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="77"/>
        <source>Cannot play %1: %2</source>
        <translation>Impossibile riprodurre %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="119"/>
        <source>Prediction failed on %1: %2</source>
        <translation>Predizione fallita su %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="130"/>
        <source>Cannot capture a graph: %1</source>
        <translation>Impossibile catturare un grafo: %1</translation>
    </message>
</context>
<context>
    <name>PredictionView</name>
    <message>
        <location filename="../ui/prediction_view.cpp" line="72"/>
        <source>Drop an image here</source>
        <translation>Trascina qui un&apos;immagine</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <location filename="../ui/settings_page.cpp" line="16"/>
        <source>off</source>
        <translation>spento</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="17"/>
        <source>on</source>
        <translation>acceso</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="18"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="32"/>
        <source>Allow pinned hub kernel plugins (LIBREYOLO_HUB_KERNELS)</source>
        <translation>Consenti i plugin di kernel dall&apos;hub, fissati (LIBREYOLO_HUB_KERNELS)</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="38"/>
        <source>automatic</source>
        <translation>automatico</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="48"/>
        <source>LIBREYOLO_KERNELS: reference (or off) forces the portable implementations; a provider name restricts selection to that provider</source>
        <translation>LIBREYOLO_KERNELS: reference (o off) impone le implementazioni portabili; il nome di un provider limita la scelta a quel provider</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="56"/>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="64"/>
        <source>Default CUDA graph mode</source>
        <translation>Modalità grafo CUDA predefinita</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="65"/>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="66"/>
        <source>Hub kernels</source>
        <translation>Kernel dall&apos;hub</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="67"/>
        <source>Kernel override</source>
        <translation>Forzatura dei kernel</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="68"/>
        <source>Language</source>
        <translation>Lingua</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="69"/>
        <source>Settings are saved as they change. The device applies when a model is loaded (next start), the language at the next start.</source>
        <translation>Le impostazioni si salvano appena cambiano. Il dispositivo vale al caricamento di un modello (prossimo avvio), la lingua al prossimo avvio.</translation>
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
        <location filename="../ui/train_page.cpp" line="152"/>
        <source>last run: %1</source>
        <translation>ultima esecuzione: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="154"/>
        <source>stopped; Resume continues %1</source>
        <translation>fermato; Riprendi continua %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="155"/>
        <source>finished: best mAP50-95 %1, results in %2</source>
        <translation>terminato: miglior mAP50-95 %1, risultati in %2</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="160"/>
        <source>failed: %1</source>
        <translation>non riuscito: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="161"/>
        <source>error: %1</source>
        <translation>errore: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="225"/>
        <source>stopping after this batch…</source>
        <translation>arresto dopo questo batch…</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="231"/>
        <source>starting…</source>
        <translation>avvio…</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="232"/>
        <source>training %1 on %2</source>
        <translation>addestramento di %1 su %2</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="233"/>
        <source>requested: eager until a batch shape has repeated 3 times</source>
        <translation>richiesto: eager finché una forma di batch non si è ripetuta 3 volte</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="234"/>
        <source>off (CUDA graph unchecked)</source>
        <translation>spento (grafo CUDA non selezionato)</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="246"/>
        <source>epoch %1/%2, batch %3/%4, loss %5, %6 ms a step, ETA %7:%8</source>
        <translation>epoca %1/%2, batch %3/%4, loss %5, %6 ms per step, fine tra %7:%8</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="261"/>
        <source>epoch %1/%2: loss %3%4, %5 s</source>
        <translation>epoca %1/%2: loss %3%4, %5 s</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="265"/>
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
        <location filename="../app/studio/main.cpp" line="36"/>
        <source>Model name or .safetensors file.</source>
        <translation>Nome del modello o file .safetensors.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="38"/>
        <source>auto, cpu, cuda or cuda:N.</source>
        <translation>auto, cpu, cuda o cuda:N.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="40"/>
        <source>Image to open.</source>
        <translation>Immagine da aprire.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="42"/>
        <source>Save the window as PNG and quit.</source>
        <translation>Salva la finestra come PNG ed esci.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="45"/>
        <source>Page to show: predict, train, graphs, kernels or settings.</source>
        <translation>Pagina da mostrare: predict, train, graphs, kernels o settings.</translation>
    </message>
</context>
</TS>
