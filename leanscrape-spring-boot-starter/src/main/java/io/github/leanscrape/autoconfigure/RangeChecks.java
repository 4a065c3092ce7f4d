package io.github.leanscrape.autoconfigure;

import java.time.Duration;

import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

/**
 * The range checks of {@link LeanscrapeProperties#validate}: each rejects a property with
 * the message Spring Boot's failure report shows beside its name and value.
 *
 * @author leanscrape
 */
final class RangeChecks {

	private RangeChecks() {
	}

	static boolean isSet(Errors errors, String field) {
		try {
			// Spring Boot's binder gives the bound value, null where none was bound.
			return errors.getFieldValue(field) != null;
		}
		catch (RuntimeException ex) {
			return true;
		}
	}

	static void between(Errors errors, String field, long value, long min, long max) {
		if (value < min || value > max) {
			errors.rejectValue(field, "range", "must be between " + min + " and " + max);
		}
	}

	static void atLeast(Errors errors, String field, long value, long min) {
		if (value < min) {
			errors.rejectValue(field, "min", "must be at least " + min);
		}
	}

	static boolean positive(Errors errors, String field, Duration value) {
		if (value.isNegative() || value.isZero()) {
			errors.rejectValue(field, "positive", "must be longer than 0");
			return false;
		}
		return true;
	}

	static void notNegative(Errors errors, String field, Duration value) {
		if (value.isNegative()) {
			errors.rejectValue(field, "min", "must be 0 or longer (0 turns it off)");
		}
	}

	static void notNegative(Errors errors, String field, DataSize value) {
		if (value.isNegative()) {
			errors.rejectValue(field, "min", "must be 0B or more");
		}
	}

}
