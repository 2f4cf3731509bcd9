CREATE TABLE `precondition_refusals` (
	`tenant_id` text NOT NULL,
	`refusal` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `refusal`),
	CONSTRAINT "precondition_refused" CHECK(0)
);
