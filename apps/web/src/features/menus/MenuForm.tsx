import { useMemo } from 'react';
import { Col, Form, Input, InputNumber, Radio, Row, Select, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACL_LIMITS, PATTERNS } from '@iot/contract/plain';
import type { MenuNode, MenuOption } from '@iot/contract';
import { MenuIcon, MENU_ICON_NAMES } from '../../components/MenuIcon';
import { FormModal } from '../../components/FormModal';
import { localizedName } from '../../lib/acl-labels';
import { currentLanguage } from '../../lib/i18n';
import type { MenuInput } from './api';

/** What the form edits: `isShow` as a switch. */
export interface MenuFormValues extends Omit<MenuInput, 'isShow'> {
  isShow: boolean;
}

interface TreeOption {
  value: number;
  title: string;
  disabled?: boolean;
  children: TreeOption[];
}

/** Options for the parent picker; the edited menu and its subtree cannot become its own parent. */
function toTree(options: MenuOption[], excluded: number | undefined, lang: ReturnType<typeof currentLanguage>, inside = false): TreeOption[] {
  return options.map((o) => {
    const off = inside || o.id === excluded;
    return { value: o.id, title: localizedName(o, lang), disabled: off, children: toTree(o.children, excluded, lang, off) };
  });
}

interface Props {
  open: boolean;
  /** The edited menu, or undefined to create one. */
  menu?: MenuNode;
  /** Parent of a new menu (the "add child" action). */
  parentId?: number;
  options: MenuOption[];
  onCancel: () => void;
  onSubmit: (values: MenuInput) => Promise<unknown>;
}

export function MenuForm({ open, menu, parentId = 0, options, onCancel, onSubmit }: Props) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const tree = useMemo(
    () => [{ value: 0, title: t('menus:topLevel'), children: toTree(options, menu?.id, lang) }],
    [options, menu?.id, lang, t],
  );
  const initialValues: Partial<MenuFormValues> = menu
    ? {
        parentId: menu.parentId,
        name: menu.name,
        nameEn: menu.nameEn,
        nameEs: menu.nameEs,
        nameJa: menu.nameJa,
        jumpType: menu.jumpType === 2 ? 2 : 1,
        menuUrl: menu.menuUrl,
        menuType: menu.menuType === 1 ? 1 : 0,
        sort: menu.sort,
        icon: menu.icon,
        identification: menu.identification,
        isShow: menu.isShow !== 0,
      }
    : { parentId, jumpType: 1, menuType: 0, sort: 0, icon: '', isShow: true, nameEn: '', nameEs: '', nameJa: '' };

  const iconOptions = MENU_ICON_NAMES.map((name) => ({
    value: name,
    label: (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }} data-testid={`icon-option-${name}`}>
        <MenuIcon name={name} />
        {name}
      </span>
    ),
  }));

  return (
    <FormModal<MenuFormValues>
      open={open}
      width={720}
      title={menu ? t('menus:edit') : t('menus:add')}
      initialValues={initialValues}
      onCancel={onCancel}
      onSubmit={(v) =>
        onSubmit({
          ...v,
          nameEn: v.nameEn ?? '',
          nameEs: v.nameEs ?? '',
          nameJa: v.nameJa ?? '',
          icon: v.icon ?? '',
          sort: v.sort ?? 0,
          isShow: v.isShow ? 1 : 0,
        })
      }
      testId="menu-form"
    >
      <Form.Item
        name="parentId"
        label={t('menus:parent')}
        rules={[{ required: true, message: t('menus:parentRequired') }]}
      >
        <TreeSelect
          treeData={tree}
          treeDefaultExpandedKeys={[0]}
          showSearch={{ treeNodeFilterProp: 'title' }}
          placeholder={t('menus:parentRequired')}
          data-testid="field-parentId"
        />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t('menus:name')} rules={[{ required: true, whitespace: true, message: t('crud:nameRequired') }]}>
            <Input maxLength={ACL_LIMITS.name} data-testid="field-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="nameEn" label={t('menus:nameEn')}>
            <Input maxLength={ACL_LIMITS.name} data-testid="field-nameEn" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="nameEs" label={t('menus:nameEs')}>
            <Input maxLength={ACL_LIMITS.name} data-testid="field-nameEs" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="nameJa" label={t('menus:nameJa')}>
            <Input maxLength={ACL_LIMITS.name} data-testid="field-nameJa" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="jumpType" label={t('menus:jumpType')} rules={[{ required: true, message: t('menus:jumpTypeRequired') }]}>
            <Radio.Group
              data-testid="field-jumpType"
              options={[
                { value: 1, label: t('menus:jumpTypes.1') },
                { value: 2, label: t('menus:jumpTypes.2') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="menuType" label={t('menus:menuType')}>
            <Radio.Group
              data-testid="field-menuType"
              options={[
                { value: 0, label: t('menus:menuTypes.0') },
                { value: 1, label: t('menus:menuTypes.1') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="menuUrl"
            label={t('menus:menuUrl')}
            extra={t('menus:menuUrlHint')}
            rules={[{ required: true, whitespace: true, message: t('menus:menuUrlRequired') }]}
          >
            <Input maxLength={ACL_LIMITS.menuUrl} data-testid="field-menuUrl" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="identification"
            label={t('menus:identification')}
            rules={[
              { required: true, whitespace: true, message: t('crud:identificationRequired') },
              { pattern: PATTERNS.identification, message: t('crud:identificationPattern') },
            ]}
          >
            <Input maxLength={ACL_LIMITS.identification} data-testid="field-identification" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="icon" label={t('menus:icon')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'value' }}
              options={iconOptions}
              popupMatchSelectWidth={280}
              placeholder={t('menus:iconPlaceholder')}
              data-testid="field-icon"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="sort" label={t('menus:sort')}>
            <InputNumber min={0} max={ACL_LIMITS.sort} precision={0} style={{ width: '100%' }} data-testid="field-sort" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="isShow" label={t('menus:isShow')} valuePropName="checked">
            <Switch data-testid="field-isShow" />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
