-- Users choose which alarm levels pop up in their console and which are mailed to them (decision
-- 0023): the lowest level of each, 1-4 (levels ascend with severity). NULL: the user never chose;
-- pop-ups then start at ALARM_NOTIFY_LEVEL (3) and mails at ALARM_MAIL_MIN_LEVEL (default 3).
ALTER TABLE "users" ADD COLUMN "alarm_popup_level" smallint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alarm_mail_level" smallint;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_alarm_popup_level_chk" CHECK (alarm_popup_level between 1 and 4);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_alarm_mail_level_chk" CHECK (alarm_mail_level between 1 and 4);