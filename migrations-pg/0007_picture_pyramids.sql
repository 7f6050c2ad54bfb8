-- Each picture's deep-zoom pyramid (decision 048): its state ('none' for pictures stored before, which have none)
-- and the kept upload it is cut from while it is built.
ALTER TABLE "pictures" ADD COLUMN "pyramid" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "pictures" ADD COLUMN "pyramid_source" text;--> statement-breakpoint
CREATE INDEX "pictures_pyramid_idx" ON "pictures" USING btree ("pyramid");