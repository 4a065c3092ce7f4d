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

	public int getSeries() {
		return this.series;
	}

	public void setSeries(int series) {
		this.series = series;
	}

}
