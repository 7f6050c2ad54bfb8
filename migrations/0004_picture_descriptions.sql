-- What each picture shows, in the artist's words (alt text for people who cannot see it); empty until given.
ALTER TABLE `pictures` ADD `description` text DEFAULT '' NOT NULL;