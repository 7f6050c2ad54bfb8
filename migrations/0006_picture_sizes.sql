-- The narrower widths stored beside each picture's large size (decision 047), as space-separated `<width>.<format>`;
-- empty for pictures stored before them, which pages show by the large size alone.
ALTER TABLE `pictures` ADD `sizes` text DEFAULT '' NOT NULL;
