package io.github.leanscrape.exposition.direct;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.micrometer.core.instrument.Meter;
import org.jspecify.annotations.Nullable;

/**
 * Everything the registry exports under one Prometheus name (one of Micrometer's
 * collectors): the meters that share it and the families they feed, or the decision that
 * this name is left to the reference path.
 * <p>
 * A name goes to the reference path (for as long as it has meters) when its output cannot
 * be promised byte for byte here: a meter type or shape the direct path does not write,
 * meters that disagree on name, type, description, tag keys or histogram layout, labels
 * that would need quoting. The registry's own collector then serves it, exactly as before.
 *
 * @author leanscrape
 */
final class MeterFamilies {

	final String conventionName;

	final String meterName;

	final Meter.Type meterType;

	final @Nullable String description;

	final @Nullable ShapeOfMeter shape;

	final List<String> tagKeys;

	final Family[] families;

	final Map<Meter.Id, Series[]> series = new HashMap<>();

	private boolean referenceOnly;

	MeterFamilies(String conventionName, Meter meter, @Nullable ShapeOfMeter shape, List<String> tagKeys,
			String help) {
		this.conventionName = conventionName;
		this.meterName = meter.getId().getName();
		this.meterType = meter.getId().getType();
		this.description = meter.getId().getDescription();
		this.shape = shape;
		this.tagKeys = tagKeys;
		this.referenceOnly = (shape == null);
		this.families = (shape != null) ? shape.families(conventionName, help) : new Family[0];
	}

	/**
	 * Return whether a meter can join these families on the direct path.
	 * <p>
	 * Meters whose tag keys differ from the first meter's are left to the registry's
	 * collector: Micrometer 1.16 and earlier refuse them to the collector (Spring Boot 4.0's
	 * endpoint leaves them out) while later versions export them, and only the collector
	 * knows which applies.
	 * @param meter the meter
	 * @param meterShape its shape
	 * @param meterTagKeys its tag keys, after the naming convention
	 * @return {@code true} when its output would be consistent with the others'
	 */
	boolean accepts(Meter meter, @Nullable ShapeOfMeter meterShape, List<String> meterTagKeys) {
		Meter.Id id = meter.getId();
		return id.getName().equals(this.meterName) && id.getType() == this.meterType
				&& Objects.equals(id.getDescription(), this.description) && Objects.equals(meterShape, this.shape)
				&& meterTagKeys.equals(this.tagKeys);
	}

	boolean isReferenceOnly() {
		return this.referenceOnly;
	}

	void referenceOnly() {
		this.referenceOnly = true;
	}

	boolean isEmpty() {
		return this.series.isEmpty();
	}

}
