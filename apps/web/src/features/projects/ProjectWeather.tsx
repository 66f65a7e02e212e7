import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/Spinner';
import { formatQuantity } from '../../lib/format';
import { useProjectWeather } from './api';

/** A WMO weather code (Open-Meteo) as one of the console's words. */
export function weatherWord(code: number | null): string {
  if (code === null) return 'unknown';
  if (code === 0) return 'clear';
  if (code <= 2) return 'partly';
  if (code === 3) return 'overcast';
  if (code === 45 || code === 48) return 'fog';
  if (code >= 51 && code <= 57) return 'drizzle';
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return 'rain';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow';
  if (code >= 95) return 'thunder';
  return 'unknown';
}

const deg = (v: number | null) => (v === null ? '–' : formatQuantity(v, '°C', 0));

/**
 * The forecast at a project's position (issue #39): now and the next days, or why there is none.
 * Asked only when the project's weather switch is on; without the provider the page is the same.
 */
export function ProjectWeather({ projectId, compact = false }: { projectId: number; compact?: boolean }) {
  const { t } = useTranslation();
  const { data, isLoading } = useProjectWeather(projectId, true);
  if (isLoading) return <Spinner size={16} />;
  if (!data || data.state !== 'ok' || !data.forecast) {
    return (
      <Typography.Text type="secondary" data-testid="project-weather">
        {t(`projects:weather.states.${!data || data.state === 'ok' ? 'unavailable' : data.state}`)}
      </Typography.Text>
    );
  }
  const f = data.forecast;
  const now = `${t(`projects:weather.words.${weatherWord(f.current.weatherCode)}`)} ${deg(f.current.temperature)}`;
  if (compact) return <span data-testid="project-weather">{now}</span>;
  return (
    <Space orientation="vertical" size={2} data-testid="project-weather">
      <span>
        {t('projects:weather.now')}: {now}
        {f.current.windSpeed !== null && ` · ${t('projects:weather.wind', { speed: Math.round(f.current.windSpeed) })}`}
      </span>
      {f.daily.map((d) => (
        <Typography.Text key={d.date} type="secondary" style={{ fontSize: 12 }}>
          {d.date}: {t(`projects:weather.words.${weatherWord(d.weatherCode)}`)} {deg(d.tempMin)} – {deg(d.tempMax)}
          {d.precipitation ? ` · ${formatQuantity(d.precipitation, 'mm', 1)}` : ''}
        </Typography.Text>
      ))}
    </Space>
  );
}
