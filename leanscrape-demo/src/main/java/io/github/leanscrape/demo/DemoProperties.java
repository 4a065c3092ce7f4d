package io.github.leanscrape.demo;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the demo application.
 *
 * @author leanscrape
 */
@ConfigurationProperties("demo")
public class DemoProperties {

	/**
	 * Number of synthetic time series (sample lines) to expose, besides the known series
	 * and the application's own meters.
	 */
	private int series = 10_000;

	/**
	 * Percentage of the synthetic counters incremented every second, whole families at a
	 * time, as the busy part of a service changes while the rest stays idle. 0 leaves
	 * them as they were made.
	 */
	private double changingPercent;

	public int getSeries() {
		return this.series;
	}

	public void setSeries(int series) {
		this.series = series;
	}

	public double getChangingPercent() {
		return this.changingPercent;
	}

	public void setChangingPercent(double changingPercent) {
		this.changingPercent = changingPercent;
	}

}
