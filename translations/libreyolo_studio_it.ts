<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="it_IT">
<context>
    <name>MainWindow</name>
    <message>
        <source>LibreYOLO Studio</source>
        <translation>LibreYOLO Studio</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Open image…</source>
        <translation>&amp;Apri immagine…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Esci</translation>
    </message>
    <message>
        <source>loading model…</source>
        <translation>caricamento del modello…</translation>
    </message>
    <message>
        <source>predicting %1…</source>
        <translation>predizione di %1…</translation>
    </message>
    <message>
        <source>Open image</source>
        <translation>Apri immagine</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.bmp *.webp)</source>
        <translation>Immagini (*.png *.jpg *.jpeg *.bmp *.webp)</translation>
    </message>
</context>
<context>
    <name>PredictionView</name>
    <message>
        <source>Drop an image here</source>
        <translation>Trascina qui un'immagine</translation>
    </message>
</context>
<context>
    <name>PredictWorker</name>
    <message>
        <source> (random weights: detections are meaningless)</source>
        <translation> (pesi casuali: le rilevazioni non hanno significato)</translation>
    </message>
    <message>
        <source>Cannot load model %1: %2</source>
        <translation>Impossibile caricare il modello %1: %2</translation>
    </message>
    <message>
        <source>No model is loaded</source>
        <translation>Nessun modello caricato</translation>
    </message>
    <message>
        <source>Cannot read image %1: %2</source>
        <translation>Impossibile leggere l'immagine %1: %2</translation>
    </message>
    <message>
        <source>Prediction failed on %1: %2</source>
        <translation>Predizione fallita su %1: %2</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Model name or .safetensors file.</source>
        <translation>Nome del modello o file .safetensors.</translation>
    </message>
    <message>
        <source>auto, cpu, cuda or cuda:N.</source>
        <translation>auto, cpu, cuda o cuda:N.</translation>
    </message>
    <message>
        <source>Image to open.</source>
        <translation>Immagine da aprire.</translation>
    </message>
    <message>
        <source>Save the window as PNG and quit.</source>
        <translation>Salva la finestra come PNG ed esci.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%n detection(s), %1 ms</source>
        <translation>
            <numerusform>%n rilevazione, %1 ms</numerusform>
            <numerusform>%n rilevazioni, %1 ms</numerusform>
        </translation>
    </message>
</context>
</TS>
