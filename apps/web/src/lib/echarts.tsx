import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

// Only the modules the console draws: line and bar charts with tooltips, legends and zoom.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, MarkLineComponent, CanvasRenderer]);

export type ChartOption = EChartsCoreOption;

/** The visible window after a zoom, as times (ms) of the x axis. */
export interface ZoomWindow {
  start: number;
  end: number;
}

/**
 * A thin ECharts wrapper: one chart instance per element, the option replaced when it changes,
 * resized with its container. `onZoom` reports the window the user zoomed to (x axis values).
 */
export function EChart({
  option,
  height = 320,
  onZoom,
  testId,
}: {
  option: ChartOption;
  height?: number;
  onZoom?: (w: ZoomWindow) => void;
  testId?: string;
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | undefined>(undefined);
  const zoomRef = useRef(onZoom);
  useEffect(() => {
    zoomRef.current = onZoom;
  }, [onZoom]);

  useEffect(() => {
    if (!el.current) return undefined;
    const c = echarts.init(el.current);
    chart.current = c;
    c.on('datazoom', () => {
      const opt = c.getOption() as { dataZoom?: { startValue?: number; endValue?: number }[] };
      const z = opt.dataZoom?.[0];
      if (z && typeof z.startValue === 'number' && typeof z.endValue === 'number') {
        zoomRef.current?.({ start: z.startValue, end: z.endValue });
      }
    });
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(el.current);
    return () => {
      resize.disconnect();
      c.dispose();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={el} style={{ width: '100%', height }} data-testid={testId} />;
}
