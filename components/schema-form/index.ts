export { DirectoryPicker } from "./directory-picker";
export { fieldControlId } from "./schema-field";
export { SchemaForm, type SchemaFormProps } from "./schema-form";
export { SecretPicker } from "./secret-picker";
