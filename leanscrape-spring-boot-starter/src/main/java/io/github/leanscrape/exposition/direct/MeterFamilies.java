package io.github.leanscrape.exposition.direct;

import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import org.jspecify.annotations.Nullable;

/**
 * Everything the registry exports under one Prometheus name (one of Micrometer's
 * collectors): the meters that share it and the families they feed, or the decision that
 * the name is left to the reference path, for as long as it has meters, because its
 * output cannot be promised byte for byte here (a meter type or shape not written
 * directly, meters that disagree, labels that would need quoting).
 *
 * @author leanscrape
 */
final class MeterFamilies {

	final String conventionName;

	final String meterName;

	final Meter.Type meterType;

	final @Nullable String description;

	final @Nullable ShapeOfMeter shape;

	final Family[] families;

	/** The statistics of the measurements of custom meters, which all must share. */
	final @Nullable List<Statistic> statistics;

	/**
	 * The series of each meter: one {@link Series} when the meter feeds one family, a
	 * {@code Series[]} (one per family, in the order of {@link #families}) when it feeds
	 * more, an empty array when the name is left to the reference path. Keyed by
	 * identity: the registry hands the same meter to the listeners that add and remove
	 * it, and an identity map holds an entry in two array slots rather than a node of its
	 * own, with no one-element array for the many meters that feed a single family.
	 */
	final Map<Meter, Object> series = new IdentityHashMap<>(2);

	/** Why the name is left to the reference path, or {@code null} while it is not. */
	private @Nullable FallbackReason referenceReason;

	/**
	 * Create the entry of a Prometheus name for its first meter.
	 * @param conventionName the name
	 * @param meter the meter
	 * @param shape its shape, or {@code null} when the direct path does not write it
	 * @param unwritten why the direct path does not write it, when it has no shape
	 * @param help the families' help text
	 */
	MeterFamilies(String conventionName, Meter meter, @Nullable ShapeOfMeter shape, @Nullable FallbackReason unwritten,
			String help) {
		this.conventionName = conventionName;
		this.meterName = meter.getId().getName();
		this.meterType = meter.getId().getType();
		this.description = meter.getId().getDescription();
		this.shape = shape;
		this.referenceReason = (shape != null) ? null
				: Objects.requireNonNullElse(unwritten, FallbackReason.METER_NOT_WRITTEN_DIRECTLY);
		this.families = (shape != null) ? shape.families(meter, conventionName, help) : new Family[0];
		this.statistics = (shape == ShapeOfMeter.CUSTOM) ? CustomStatistics.of(meter) : null;
	}

	/**
	 * Return whether a meter can join these families on the direct path.
	 * <p>
	 * A meter whose tag keys differ from those of the meters already here is left to the
	 * registry's collector: Micrometer 1.16 and earlier refuse it to the collector
	 * (Spring Boot 4.0's endpoint leaves it out) while later versions export it, and only
	 * the collector knows which applies.
	 * @param meter the meter
	 * @param meterShape its shape
	 * @param convention the registry's naming convention
	 * @return {@code true} when its output would be consistent with the others'
	 */
	boolean accepts(Meter meter, @Nullable ShapeOfMeter meterShape, NamingConvention convention) {
		Meter.Id id = meter.getId();
		return id.getName().equals(this.meterName) && id.getType() == this.meterType
				&& Objects.equals(id.getDescription(), this.description) && Objects.equals(meterShape, this.shape)
				&& (this.statistics == null || this.statistics.equals(CustomStatistics.of(meter)))
				&& sameTagKeys(id, convention);
	}

	/**
	 * Compare with any meter already here (all have the same keys): kept nowhere, so the
	 * index costs no more per name, and read only when a meter is added.
	 * @param id the new meter's id
	 * @param convention the registry's naming convention
	 * @return whether its tag keys map to the same labels as the others'
	 */
	private boolean sameTagKeys(Meter.Id id, NamingConvention convention) {
		Iterator<Meter> existing = this.series.keySet().iterator();
		if (!existing.hasNext()) {
			return true;
		}
		List<Tag> tags = id.getConventionTags(convention);
		List<Tag> existingTags = existing.next().getId().getConventionTags(convention);
		if (tags.size() != existingTags.size()) {
			return false;
		}
		for (int i = 0; i < tags.size(); i++) {
			if (!tags.get(i).getKey().equals(existingTags.get(i).getKey())) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Return one of these families by name.
	 * @param name its name
	 * @return the family
	 */
	Family family(String name) {
		for (Family family : this.families) {
			if (family.name.equals(name)) {
				return family;
			}
		}
		throw new IllegalStateException("No family " + name + " for " + this.conventionName);
	}

	boolean isReferenceOnly() {
		return this.referenceReason != null;
	}

	/**
	 * Return why the name is left to the reference path.
	 * @return the reason, or {@code null} when it is not
	 */
	@Nullable FallbackReason referenceReason() {
		return this.referenceReason;
	}

	/**
	 * Leave the name to the reference path, for as long as it has meters; the first
	 * reason stays.
	 * @param reason why
	 */
	void referenceOnly(FallbackReason reason) {
		if (this.referenceReason == null) {
			this.referenceReason = reason;
		}
	}

	boolean isEmpty() {
		return this.series.isEmpty();
	}

}
