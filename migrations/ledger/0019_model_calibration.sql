-- The local model's last calibration fit, kept with its counts (schema.ts, modelMarks).
ALTER TABLE `model_marks` ADD `calibration` text;