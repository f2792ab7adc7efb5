<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="it_IT">
<context>
    <name>CudaGate</name>
    <message>
        <location filename="../ui/cuda_gate.h" line="29"/>
        <source>No CUDA GPU: CUDA graphs need one</source>
        <translation>Nessuna GPU CUDA: i grafi CUDA ne richiedono una</translation>
    </message>
    <message>
        <location filename="../ui/cuda_gate.h" line="32"/>
        <source>No CUDA GPU: mixed precision needs one</source>
        <translation>Nessuna GPU CUDA: la precisione mista ne richiede una</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/cuda_gate.h" line="35"/>
        <source>No GPU %1 here: LibTorch sees %n GPU(s)</source>
        <translation>
            <numerusform>Nessuna GPU %1 qui: LibTorch vede %n GPU</numerusform>
            <numerusform>Nessuna GPU %1 qui: LibTorch vede %n GPU</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/cuda_gate.h" line="38"/>
        <source>No CUDA GPU: %1 needs one</source>
        <translation>Nessuna GPU CUDA: %1 ne richiede una</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../ui/export_dialog.cpp" line="34"/>
        <source>Export model to ONNX</source>
        <translation>Esporta il modello in ONNX</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="39"/>
        <source>The .onnx file to write; empty: the default shown (_fp16 added for float16)</source>
        <translation>Il file .onnx da scrivere; vuoto: quello predefinito mostrato (_fp16 aggiunto per float16)</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="40"/>
        <source>Browse…</source>
        <translation>Sfoglia…</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="45"/>
        <source>File:</source>
        <translation>File:</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="50"/>
        <source>the model&apos;s</source>
        <translation>quella del modello</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="51"/>
        <source>Square input size, a multiple of 32</source>
        <translation>Dimensione quadrata dell&apos;input, un multiplo di 32</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="52"/>
        <source>Input size:</source>
        <translation>Dimensione dell&apos;input:</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="54"/>
        <source>Dynamic batch (any batch size at run time)</source>
        <translation>Batch dinamico (qualsiasi dimensione del batch all&apos;esecuzione)</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="58"/>
        <source>Batch:</source>
        <translation>Batch:</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="60"/>
        <source>Float16 weights, input and output</source>
        <translation>Pesi, input e output in float16</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="63"/>
        <source>NMS inside the graph (%1; batch 1)</source>
        <translation>NMS dentro il grafo (%1; batch 1)</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="84"/>
        <source>the family&apos;s (%1)</source>
        <translation>quello della famiglia (%1)</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="66"/>
        <source>Outputs `output` (1, max_det, 6): x1 y1 x2 y2 score class, and `raw`</source>
        <translation>Output `output` (1, max_det, 6): x1 y1 x2 y2 punteggio classe, e `raw`</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="77"/>
        <source>NMS confidence:</source>
        <translation>Confidenza NMS:</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="78"/>
        <source>NMS IoU:</source>
        <translation>IoU NMS:</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="79"/>
        <source>Max detections:</source>
        <translation>Rilevamenti massimi:</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="85"/>
        <source>Opset:</source>
        <translation>Opset:</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="88"/>
        <source>Export</source>
        <translation>Esporta</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="131"/>
        <source>Export to</source>
        <translation>Esporta in</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="131"/>
        <source>ONNX (*.onnx)</source>
        <translation>ONNX (*.onnx)</translation>
    </message>
</context>
<context>
    <name>GraphTableModel</name>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="30"/>
        <source>fused</source>
        <translation>fusa</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="30"/>
        <source>as loaded</source>
        <translation>come caricata</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="46"/>
        <source>%1 graphs + %2 eager</source>
        <translation>%1 grafi + %2 eager</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="47"/>
        <source>whole forward</source>
        <translation>forward intero</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="58"/>
        <source>Key (batch×C×H×W)</source>
        <translation>Chiave (batch×C×H×W)</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="60"/>
        <source>Network</source>
        <translation>Rete</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="62"/>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="64"/>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="66"/>
        <source>Task</source>
        <translation>Compito</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="68"/>
        <source>Replays</source>
        <translation>Riproduzioni</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="70"/>
        <source>Kernels</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="72"/>
        <source>Capture ms</source>
        <translation>Cattura ms</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="74"/>
        <source>Pool MiB</source>
        <translation>Pool MiB</translation>
    </message>
    <message>
        <location filename="../ui/graph_table_model.cpp" line="76"/>
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
        <location filename="../ui/kernels_page.cpp" line="25"/>
        <source>class-aware NMS: (boxes, scores, classes, iou) -&gt; kept indices</source>
        <translation>NMS per classe: (riquadri, punteggi, classi, iou) -&gt; indici mantenuti</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="26"/>
        <source>FP8 E4M3 fake quantization: (x, broadcastable scale) -&gt; x on the E4M3 grid, STE gradient</source>
        <translation>quantizzazione simulata FP8 E4M3: (x, scala in broadcast) -&gt; x sulla griglia E4M3, gradiente STE</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="28"/>
        <source>multi-scale deformable attention: (value, sampling_locations, attention_weights, levels) -&gt; (N, queries, heads·channels)</source>
        <translation>attenzione deformabile multi-scala: (valori, posizioni di campionamento, pesi di attenzione, livelli) -&gt; (N, query, teste·canali)</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="32"/>
        <source>unavailable</source>
        <translation>non disponibile</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="34"/>
        <source>a later registration is preferred</source>
        <translation>è preferita una registrazione successiva</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="35"/>
        <source>its predicate declined the last call</source>
        <translation>il suo predicato ha rifiutato l&apos;ultima chiamata</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="36"/>
        <source>its predicate threw: %1</source>
        <translation>il suo predicato ha lanciato un errore: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="37"/>
        <source>an accelerated implementation applies</source>
        <translation>si applica un&apos;implementazione accelerata</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="38"/>
        <source>no CUDA device</source>
        <translation>nessun dispositivo CUDA</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="39"/>
        <source>failed when run: %1</source>
        <translation>fallito durante l&apos;esecuzione: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="40"/>
        <source>its provider failed: %1</source>
        <translation>il suo provider è fallito: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="43"/>
        <source>references forced by the application&apos;s setting &apos;%1&apos;</source>
        <translation>implementazioni di riferimento imposte dall&apos;impostazione dell&apos;applicazione &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="44"/>
        <source>only provider &apos;%1&apos; by the application&apos;s setting &apos;%2&apos;</source>
        <translation>solo il provider &apos;%1&apos;, per l&apos;impostazione dell&apos;applicazione &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="45"/>
        <source>references forced by %1</source>
        <translation>implementazioni di riferimento imposte da %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="46"/>
        <source>hub plugins off (%1)</source>
        <translation>plugin dall&apos;hub spenti (%1)</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="47"/>
        <source>only provider &apos;%1&apos; by %2</source>
        <translation>solo il provider &apos;%1&apos;, per %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="49"/>
        <source>none</source>
        <translation>nessuna</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="50"/>
        <source>references only (%1)</source>
        <translation>solo implementazioni di riferimento (%1)</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="51"/>
        <source>provider &apos;%1&apos; only (%2)</source>
        <translation>solo il provider &apos;%1&apos; (%2)</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="53"/>
        <source>the application&apos;s setting</source>
        <translation>impostazione dell&apos;applicazione</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="54"/>
        <source>the application&apos;s setting &apos;%1&apos;</source>
        <translation>impostazione dell&apos;applicazione &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="56"/>
        <source>loaded</source>
        <translation>caricato</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="57"/>
        <source>skipped: %1</source>
        <translation>saltato: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="58"/>
        <source>not loaded: %1</source>
        <translation>non caricato: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="59"/>
        <source>refused: %1</source>
        <translation>rifiutato: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="60"/>
        <source>disabled: %1</source>
        <translation>disattivato: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="62"/>
        <source>built for torch %1, this is torch %2</source>
        <translation>compilato per torch %1, questo è torch %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="63"/>
        <source>built for CUDA %1, this LibTorch has CUDA %2</source>
        <translation>compilato per CUDA %1, questa LibTorch ha CUDA %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="64"/>
        <source>built for %1, this machine&apos;s GPU is %2</source>
        <translation>compilato per %1, la GPU di questa macchina è %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="65"/>
        <source>absent</source>
        <translation>assente</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="112"/>
        <source>Slot / implementation</source>
        <translation>Slot / implementazione</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="112"/>
        <source>Provider</source>
        <translation>Provider</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="112"/>
        <source>Available</source>
        <translation>Disponibile</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="112"/>
        <source>Status</source>
        <translation>Stato</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="115"/>
        <source>reading the kernel registry…</source>
        <translation>lettura del registro dei kernel…</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="117"/>
        <source>Refresh</source>
        <translation>Aggiorna</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="188"/>
        <source>Cannot read the kernel registry: %1</source>
        <translation>Impossibile leggere il registro dei kernel: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="192"/>
        <source>Override in effect: %1 · hub kernels: %2</source>
        <translation>Forzatura in vigore: %1 · kernel dall&apos;hub: %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="193"/>
        <source>allowed</source>
        <translation>consentiti</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="193"/>
        <source>off</source>
        <translation>spenti</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="197"/>
        <source>uses %1 — %2</source>
        <translation>usa %1 — %2</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="202"/>
        <location filename="../ui/kernels_page.cpp" line="217"/>
        <source>yes</source>
        <translation>sì</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="202"/>
        <location filename="../ui/kernels_page.cpp" line="217"/>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="204"/>
        <source>in use</source>
        <translation>in uso</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="204"/>
        <source>passed over: %1</source>
        <translation>scartato: %1</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="211"/>
        <source>Plugins</source>
        <translation>Plugin</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="212"/>
        <source>none listed</source>
        <translation>nessuno elencato</translation>
    </message>
    <message>
        <location filename="../ui/kernels_page.cpp" line="219"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>LiveBar</name>
    <message>
        <location filename="../ui/live_bar.cpp" line="11"/>
        <source>camera index (0) or stream URL (rtsp://, http://…)</source>
        <translation>indice della videocamera (0) o URL dello stream (rtsp://, http://…)</translation>
    </message>
    <message>
        <location filename="../ui/live_bar.cpp" line="13"/>
        <source>Track</source>
        <translation>Traccia</translation>
    </message>
    <message>
        <location filename="../ui/live_bar.cpp" line="14"/>
        <source>Follow objects across frames (ByteTrack): each box shows its track id</source>
        <translation>Segui gli oggetti da un fotogramma all&apos;altro (ByteTrack): ogni riquadro mostra il suo id di traccia</translation>
    </message>
    <message>
        <location filename="../ui/live_bar.cpp" line="16"/>
        <location filename="../ui/live_bar.cpp" line="62"/>
        <source>Start</source>
        <translation>Avvia</translation>
    </message>
    <message>
        <location filename="../ui/live_bar.cpp" line="21"/>
        <source>Live:</source>
        <translation>Dal vivo:</translation>
    </message>
    <message>
        <location filename="../ui/live_bar.cpp" line="32"/>
        <source>Give a camera index or a stream URL first</source>
        <translation>Indica prima un indice di videocamera o un URL di stream</translation>
    </message>
    <message>
        <location filename="../ui/live_bar.cpp" line="62"/>
        <source>Stop</source>
        <translation>Ferma</translation>
    </message>
</context>
<context>
    <name>LogRouter</name>
    <message>
        <location filename="../ui/log_router.cpp" line="40"/>
        <source>warning: </source>
        <translation>avviso: </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../ui/main_window.cpp" line="43"/>
        <source>LibTorch %1 · no GPU</source>
        <translation>LibTorch %1 · nessuna GPU</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="44"/>
        <source>LibTorch %1 · CUDA %2 · %n GPU(s)</source>
        <translation>
            <numerusform>LibTorch %1 · CUDA %2 · %n GPU</numerusform>
            <numerusform>LibTorch %1 · CUDA %2 · %n GPU</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="51"/>
        <source>LibreYOLO Studio</source>
        <translation>LibreYOLO Studio</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="58"/>
        <source>Predict</source>
        <translation>Predizione</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="59"/>
        <source>Train</source>
        <translation>Addestramento</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="61"/>
        <source>Graphs</source>
        <translation>Grafi</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="66"/>
        <source>Kernels</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="68"/>
        <source>Settings</source>
        <translation>Impostazioni</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="104"/>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="105"/>
        <source>&amp;Open images…</source>
        <translation>&amp;Apri immagini…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="106"/>
        <source>Open &amp;model…</source>
        <translation>Apri &amp;modello…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="107"/>
        <source>Open &amp;pretrained model…</source>
        <translation>Apri modello &amp;preaddestrato…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="108"/>
        <source>Open &amp;folder…</source>
        <translation>Apri &amp;cartella…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="109"/>
        <source>&amp;Save results…</source>
        <translation>&amp;Salva risultati…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="110"/>
        <source>&amp;Export model…</source>
        <translation>&amp;Esporta modello…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="111"/>
        <source>S&amp;top video</source>
        <translation>&amp;Ferma il video</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="135"/>
        <location filename="../ui/main_window.cpp" line="239"/>
        <source>Cannot export</source>
        <translation>Impossibile esportare</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="142"/>
        <source>%1: %n frame(s) predicted</source>
        <translation>
            <numerusform>%1: %n fotogramma predetto</numerusform>
            <numerusform>%1: %n fotogrammi predetti</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="146"/>
        <source>reading %1…</source>
        <translation>lettura di %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="150"/>
        <source>%1 FPS · %2 ms per frame · %3</source>
        <translation>%1 FPS · %2 ms per fotogramma · %3</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="155"/>
        <source>%1: %n frame(s), %2</source>
        <translation>
            <numerusform>%1: %n fotogramma, %2</numerusform>
            <numerusform>%1: %n fotogrammi, %2</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="200"/>
        <source>moving the model to %1…</source>
        <translation>sposto il modello su %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="217"/>
        <source>downloading %1…</source>
        <translation>download di %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="222"/>
        <source>no model: %1 is not downloaded</source>
        <translation>nessun modello: %1 non è scaricato</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="230"/>
        <source>Cannot download %1</source>
        <translation>Impossibile scaricare %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="239"/>
        <source>No model is loaded: open one first (File ▸ Open model…).</source>
        <translation>Nessun modello caricato: aprine prima uno (File ▸ Apri modello…).</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="249"/>
        <source>Exporting %1 to ONNX…</source>
        <translation>Esportazione di %1 in ONNX…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="254"/>
        <source>Exported %1 (%2 MB).</source>
        <translation>Esportato %1 (%2 MB).</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="257"/>
        <source>Export finished</source>
        <translation>Esportazione completata</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="298"/>
        <source>%1 (fused)</source>
        <translation>%1 (fuso)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="337"/>
        <location filename="../ui/main_window.cpp" line="338"/>
        <source>opening %1…</source>
        <translation>apertura di %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="366"/>
        <source>Images and videos (%1)</source>
        <translation>Immagini e video (%1)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="179"/>
        <source>loading %1…</source>
        <translation>caricamento di %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="267"/>
        <source>Open model weights</source>
        <translation>Apri i pesi di un modello</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="267"/>
        <source>Weights (*.safetensors *.pt)</source>
        <translation>Pesi (*.safetensors *.pt)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="281"/>
        <source>no model: %1</source>
        <translation>nessun modello: %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="282"/>
        <source>Cannot load the model</source>
        <translation>Impossibile caricare il modello</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="283"/>
        <source>%1

Still using %2.</source>
        <translation>%1

Resta in uso %2.</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="294"/>
        <source>%n detection(s) · %1 / %2 / %3 ms pre / inference / post</source>
        <translation>
            <numerusform>%n rilevamento · %1 / %2 / %3 ms pre / inferenza / post</numerusform>
            <numerusform>%n rilevamenti · %1 / %2 / %3 ms pre / inferenza / post</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="299"/>
        <source>frame %1 · %2</source>
        <translation>fotogramma %1 · %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="302"/>
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
        <location filename="../ui/main_window.cpp" line="318"/>
        <source>playing %1…</source>
        <translation>riproduco %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="361"/>
        <source>No image among %1</source>
        <translation>Nessuna immagine tra %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="366"/>
        <source>Open images or a video</source>
        <translation>Apri immagini o un video</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="371"/>
        <source>Open a folder of images</source>
        <translation>Apri una cartella di immagini</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="381"/>
        <source>Nothing to save yet: predict an image first</source>
        <translation>Ancora niente da salvare: prima fai una predizione</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="384"/>
        <source>Save results into</source>
        <translation>Salva i risultati in</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="389"/>
        <source>Cannot save the results</source>
        <translation>Impossibile salvare i risultati</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/main_window.cpp" line="392"/>
        <source>Saved %n annotated image(s) and predictions.json to %1</source>
        <translation>
            <numerusform>Salvata %n immagine annotata e predictions.json in %1</numerusform>
            <numerusform>Salvate %n immagini annotate e predictions.json in %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="112"/>
        <source>&amp;Quit</source>
        <translation>&amp;Esci</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="190"/>
        <location filename="../ui/main_window.cpp" line="318"/>
        <source>predicting %1…</source>
        <translation>predizione di %1…</translation>
    </message>
</context>
<context>
    <name>ModelPickerDialog</name>
    <message>
        <location filename="../ui/model_picker.cpp" line="15"/>
        <source>Pretrained models</source>
        <translation>Modelli preaddestrati</translation>
    </message>
    <message>
        <location filename="../ui/model_picker.cpp" line="29"/>
        <source>LibreYOLO&apos;s published weights (COCO, 80 classes). Files in ./weights/ come first; a model not on disk is downloaded once into %1.</source>
        <translation>I pesi pubblicati da LibreYOLO (COCO, 80 classi). I file in ./weights/ hanno la precedenza; un modello non presente su disco viene scaricato una volta in %1.</translation>
    </message>
    <message>
        <location filename="../ui/model_picker.cpp" line="35"/>
        <source>Use model</source>
        <translation>Usa il modello</translation>
    </message>
</context>
<context>
    <name>PredictControls</name>
    <message>
        <location filename="../ui/predict_controls.cpp" line="31"/>
        <source>model&apos;s</source>
        <translation>del modello</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="39"/>
        <source>off</source>
        <translation>spento</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="40"/>
        <source>on</source>
        <translation>acceso</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="41"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="43"/>
        <source>Replay the network as a CUDA graph: on captures each new input shape, auto captures when a shape comes again (CUDA devices only)</source>
        <translation>Riproduce la rete come grafo CUDA: acceso cattura ogni nuova forma di input, auto cattura quando una forma si ripete (solo dispositivi CUDA)</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="47"/>
        <source>fuse</source>
        <translation>fondi</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="50"/>
        <source>Predict with an inference copy of the network whose BatchNorms are folded into its convolutions: faster, the same boxes up to rounding</source>
        <translation>Predici con una copia d&apos;inferenza della rete in cui le BatchNorm sono incorporate nelle convoluzioni: più veloce, gli stessi riquadri a meno di arrotondamenti</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="56"/>
        <source>Where the model runs: auto, cpu, cuda or cuda:N</source>
        <translation>Dove gira il modello: auto, cpu, cuda o cuda:N</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="63"/>
        <source>conf</source>
        <translation>conf</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="63"/>
        <source>iou</source>
        <translation>iou</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="64"/>
        <source>imgsz</source>
        <translation>imgsz</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="64"/>
        <source>CUDA graph</source>
        <translation>Grafo CUDA</translation>
    </message>
    <message>
        <location filename="../ui/predict_controls.cpp" line="65"/>
        <source>device</source>
        <translation>dispositivo</translation>
    </message>
</context>
<context>
    <name>PredictWorker</name>
    <message>
        <location filename="../ui/predict_worker.cpp" line="39"/>
        <source> (random weights: detections are meaningless)</source>
        <translation> (pesi casuali: le rilevazioni non hanno significato)</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="16"/>
        <source>Cannot load model %1: %2</source>
        <translation>Impossibile caricare il modello %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="51"/>
        <source>Cannot move the model to %1: %2</source>
        <translation>Impossibile spostare il modello su %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="58"/>
        <source>No model is loaded</source>
        <translation>Nessun modello caricato</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="70"/>
        <source>Cannot read image %1: %2</source>
        <translation>Impossibile leggere l&apos;immagine %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="109"/>
        <source>Cannot play %1: %2</source>
        <translation>Impossibile riprodurre %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="153"/>
        <source>Cannot open %1: %2</source>
        <translation>Impossibile aprire %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="170"/>
        <source>stopped</source>
        <translation>fermato</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="180"/>
        <source>CUDA graph off</source>
        <translation>grafo CUDA spento</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="184"/>
        <source>CUDA graph: not captured yet</source>
        <translation>grafo CUDA: non ancora catturato</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/predict_worker.cpp" line="185"/>
        <source>CUDA graph: %n captured, %1 replays</source>
        <translation>
            <numerusform>grafo CUDA: %n catturato, %1 riproduzioni</numerusform>
            <numerusform>grafo CUDA: %n catturati, %1 riproduzioni</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="194"/>
        <source>the source ended</source>
        <translation>la sorgente è terminata</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="220"/>
        <location filename="../ui/predict_worker.cpp" line="248"/>
        <source>Prediction failed on %1: %2</source>
        <translation>Predizione fallita su %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/predict_worker.cpp" line="264"/>
        <source>Cannot capture a graph: %1</source>
        <translation>Impossibile catturare un grafo: %1</translation>
    </message>
</context>
<context>
    <name>PredictionResults</name>
    <message>
        <location filename="../ui/prediction_results.cpp" line="22"/>
        <source>Cannot create folder %1</source>
        <translation>Impossibile creare la cartella %1</translation>
    </message>
    <message>
        <location filename="../ui/prediction_results.cpp" line="34"/>
        <location filename="../ui/prediction_results.cpp" line="42"/>
        <source>Cannot write %1: %2</source>
        <translation>Impossibile scrivere %1: %2</translation>
    </message>
</context>
<context>
    <name>PredictionView</name>
    <message>
        <location filename="../ui/prediction_view.cpp" line="88"/>
        <source>Drop an image here</source>
        <translation>Trascina qui un&apos;immagine</translation>
    </message>
</context>
<context>
    <name>PretrainedCatalog</name>
    <message>
        <location filename="../ui/pretrained_catalog.cpp" line="120"/>
        <source>%1 is downloaded from LibreYOLO&apos;s hub when chosen</source>
        <translation>%1 viene scaricato dall&apos;hub di LibreYOLO quando lo si sceglie</translation>
    </message>
    <message>
        <location filename="../ui/pretrained_catalog.cpp" line="137"/>
        <source>not downloaded</source>
        <translation>non scaricato</translation>
    </message>
    <message>
        <location filename="../ui/pretrained_catalog.cpp" line="146"/>
        <source>Model</source>
        <translation>Modello</translation>
    </message>
    <message>
        <location filename="../ui/pretrained_catalog.cpp" line="148"/>
        <source>Family</source>
        <translation>Famiglia</translation>
    </message>
    <message>
        <location filename="../ui/pretrained_catalog.cpp" line="150"/>
        <source>Parameters</source>
        <translation>Parametri</translation>
    </message>
    <message>
        <location filename="../ui/pretrained_catalog.cpp" line="152"/>
        <source>Input size</source>
        <translation>Dimensione d&apos;ingresso</translation>
    </message>
    <message>
        <location filename="../ui/pretrained_catalog.cpp" line="154"/>
        <source>Weights</source>
        <translation>Pesi</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../ui/export_dialog.cpp" line="21"/>
        <source>%1.onnx beside the weights</source>
        <translation>%1.onnx accanto ai pesi</translation>
    </message>
    <message>
        <location filename="../ui/export_dialog.cpp" line="27"/>
        <source>weights/&lt;model&gt;.onnx</source>
        <translation>weights/&lt;modello&gt;.onnx</translation>
    </message>
    <message>
        <location filename="../ui/option_editor.cpp" line="11"/>
        <source>%1
value: %2
default: %3</source>
        <translation>%1
valore: %2
predefinito: %3</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <location filename="../ui/settings_page.cpp" line="17"/>
        <source>off</source>
        <translation>spento</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="18"/>
        <source>on</source>
        <translation>acceso</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="19"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="47"/>
        <source>automatic</source>
        <translation>automatico</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="41"/>
        <source>Allow pinned hub kernel plugins</source>
        <translation>Consenti i plugin di kernel dall&apos;hub, fissati</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="35"/>
        <source>Fuse the network for inference (BatchNorm folded into the convolutions)</source>
        <translation>Fondi la rete per l&apos;inferenza (BatchNorm incorporate nelle convoluzioni)</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="57"/>
        <source>reference (or off) forces the portable implementations; a provider name restricts selection to that provider. In place of LIBREYOLO_KERNELS, for the studio</source>
        <translation>reference (o off) impone le implementazioni portabili; il nome di un provider limita la scelta a quel provider. Al posto di LIBREYOLO_KERNELS, per lo studio</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="65"/>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="73"/>
        <source>Default CUDA graph mode</source>
        <translation>Modalità grafo CUDA predefinita</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="74"/>
        <source>Fused inference</source>
        <translation>Inferenza fusa</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="75"/>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="76"/>
        <source>Hub kernels</source>
        <translation>Kernel dall&apos;hub</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="77"/>
        <source>Kernel override</source>
        <translation>Forzatura dei kernel</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="78"/>
        <source>Language</source>
        <translation>Lingua</translation>
    </message>
    <message>
        <location filename="../ui/settings_page.cpp" line="79"/>
        <source>Settings are saved as they change. The device applies when a model is loaded (next start), the language at the next start.</source>
        <translation>Le impostazioni si salvano appena cambiano. Il dispositivo vale al caricamento di un modello (prossimo avvio), la lingua al prossimo avvio.</translation>
    </message>
</context>
<context>
    <name>TrainCharts</name>
    <message>
        <location filename="../ui/train_charts.cpp" line="74"/>
        <location filename="../ui/train_charts.cpp" line="83"/>
        <source>step</source>
        <translation>passo</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="74"/>
        <source>loss</source>
        <translation>perdita</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="74"/>
        <source>epoch mean</source>
        <translation>media dell&apos;epoca</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="77"/>
        <source>epoch</source>
        <translation>epoca</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="77"/>
        <source>mAP</source>
        <translation>mAP</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="77"/>
        <source>mAP50</source>
        <translation>mAP50</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="77"/>
        <source>mAP50-95</source>
        <translation>mAP50-95</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="83"/>
        <source>learning rate</source>
        <translation>tasso di apprendimento</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="83"/>
        <source>lr</source>
        <translation>lr</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="83"/>
        <source>step ms</source>
        <translation>ms per passo</translation>
    </message>
    <message>
        <location filename="../ui/train_charts.cpp" line="87"/>
        <source>ms a step</source>
        <translation>ms per passo</translation>
    </message>
</context>
<context>
    <name>TrainForm</name>
    <message>
        <location filename="../ui/train_form.cpp" line="82"/>
        <source>A model name (%1) or a .safetensors or LibreYOLO .pt file to start from</source>
        <translation>Il nome di un modello (%1) o un file .safetensors o .pt di LibreYOLO da cui partire</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="85"/>
        <source>Pretrained…</source>
        <translation>Preaddestrati…</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="47"/>
        <source>Optimisation</source>
        <translation>Ottimizzazione</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="49"/>
        <source>Augmentation</source>
        <translation>Aumento dei dati</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="51"/>
        <source>The run</source>
        <translation>L&apos;esecuzione</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="93"/>
        <source>data.yaml</source>
        <translation>data.yaml</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="94"/>
        <source>Browse…</source>
        <translation>Sfoglia…</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="97"/>
        <source>Dataset YAML</source>
        <translation>YAML del dataset</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="97"/>
        <source>YAML (*.yaml *.yml)</source>
        <translation>YAML (*.yaml *.yml)</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="160"/>
        <source>More options</source>
        <translation>Altre opzioni</translation>
    </message>
    <message>
        <location filename="../ui/train_form.cpp" line="207"/>
        <source>%1: %2 defaults (optimizer %3, lr0 %4)</source>
        <translation>%1: valori predefiniti di %2 (ottimizzatore %3, lr0 %4)</translation>
    </message>
</context>
<context>
    <name>TrainPage</name>
    <message>
        <location filename="../ui/train_page.cpp" line="22"/>
        <source>Start</source>
        <translation>Avvia</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="23"/>
        <source>Stop</source>
        <translation>Ferma</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="24"/>
        <source>Resume</source>
        <translation>Riprendi</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="25"/>
        <source>Ends after the current batch; Resume continues from the last finished epoch</source>
        <translation>Termina dopo il batch corrente; Riprendi continua dall&apos;ultima epoca completata</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="38"/>
        <source>idle</source>
        <translation>inattivo</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="210"/>
        <source>last run: %1</source>
        <translation>ultima esecuzione: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="147"/>
        <location filename="../ui/train_page.cpp" line="158"/>
        <source>off</source>
        <translation>spento</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="211"/>
        <source>stopped; Resume continues %1</source>
        <translation>fermato; Riprendi continua %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="212"/>
        <source>finished: best mAP50-95 %1, results in %2</source>
        <translation>terminato: miglior mAP50-95 %1, risultati in %2</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="217"/>
        <source>failed: %1</source>
        <translation>non riuscito: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="218"/>
        <source>error: %1</source>
        <translation>errore: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="112"/>
        <source>Choose a dataset YAML first</source>
        <translation>Prima scegli lo YAML di un dataset</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="133"/>
        <source>resuming %1</source>
        <translation>ripresa di %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="140"/>
        <source>stopping after this batch…</source>
        <translation>arresto dopo questo batch…</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="163"/>
        <source>starting…</source>
        <translation>avvio…</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/train_page.cpp" line="151"/>
        <source>requested: eager until a batch shape has come %n time(s)</source>
        <translation>
            <numerusform>richiesto: eager finché una forma di batch non si è presentata %n volta</numerusform>
            <numerusform>richiesto: eager finché una forma di batch non si è presentata %n volte</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="125"/>
        <source>training %1 on %2</source>
        <translation>addestramento di %1 su %2</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="149"/>
        <source>not used, training eager: %1</source>
        <translation>non usato, addestramento eager: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="154"/>
        <source>replaying the training step for batches of %1</source>
        <translation>ripete lo step di addestramento per i batch di %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="156"/>
        <source>eager after a failure: %1</source>
        <translation>eager dopo un errore: %1</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="166"/>
        <source>off (CUDA graph unchecked)</source>
        <translation>spento (grafo CUDA non selezionato)</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="181"/>
        <source>epoch %1/%2, batch %3/%4, loss %5, %6 ms a step, ETA %7:%8</source>
        <translation>epoca %1/%2, batch %3/%4, perdita %5, %6 ms per passo, fine tra %7:%8</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="195"/>
        <source>epoch %1/%2: loss %3%4, %5 s</source>
        <translation>epoca %1/%2: perdita %3%4, %5 s</translation>
    </message>
    <message>
        <location filename="../ui/train_page.cpp" line="200"/>
        <source>, mAP50 %1, mAP50-95 %2</source>
        <translation>, mAP50 %1, mAP50-95 %2</translation>
    </message>
</context>
<context>
    <name>WeightsDownloadDialog</name>
    <message>
        <location filename="../ui/weights_download.cpp" line="18"/>
        <source>Downloading %1</source>
        <translation>Download di %1</translation>
    </message>
    <message>
        <location filename="../ui/weights_download.cpp" line="29"/>
        <source>Downloading %1
from %2</source>
        <translation>Download di %1
da %2</translation>
    </message>
    <message>
        <location filename="../ui/weights_download.cpp" line="32"/>
        <source>Cancelling…</source>
        <translation>Annullamento…</translation>
    </message>
    <message>
        <location filename="../ui/weights_download.cpp" line="71"/>
        <source>Downloading %1
from %2
%3 of %4 MB</source>
        <translation>Download di %1
da %2
%3 di %4 MB</translation>
    </message>
    <message>
        <location filename="../ui/weights_download.cpp" line="73"/>
        <source>Downloading %1
from %2
%3 MB</source>
        <translation>Download di %1
da %2
%3 MB</translation>
    </message>
    <message>
        <location filename="../ui/weights_download.cpp" line="86"/>
        <source>Cannot download %1</source>
        <translation>Impossibile scaricare %1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/studio/main.cpp" line="42"/>
        <source>Model name (LibreYOLO&apos;s pretrained weights, downloaded once) or weights file.</source>
        <translation>Nome del modello (pesi preaddestrati di LibreYOLO, scaricati una volta) o file dei pesi.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="45"/>
        <source>auto, cpu, cuda or cuda:N.</source>
        <translation>auto, cpu, cuda o cuda:N.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="47"/>
        <source>Image, folder or video to open.</source>
        <translation>Immagine, cartella o video da aprire.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="49"/>
        <source>Save the window as PNG and quit.</source>
        <translation>Salva la finestra come PNG ed esci.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="52"/>
        <source>Page to show: predict, train, graphs, kernels or settings.</source>
        <translation>Pagina da mostrare: predict, train, graphs, kernels o settings.</translation>
    </message>
</context>
</TS>
